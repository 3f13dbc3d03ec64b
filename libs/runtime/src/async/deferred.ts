/** A promise and the function that resolves it, for code that must resolve a wait from elsewhere (Node 20 has no Promise.withResolvers). */
export function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}
