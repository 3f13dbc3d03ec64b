/** The console's shell; pages are added in ./pages and listed in ./routes. */
export function App() {
  return (
    <main id="main">
      <h1>ecomm-sync console</h1>
    </main>
  );
}
