/**
 * Runs a task every `intervalMs`, never two runs at once (a run that lasts longer than the
 * interval skips the ticks it overlaps). A failed run is reported and the next tick runs again.
 * The timer does not keep the process alive; the returned function stops it.
 */
export function runPeriodically(intervalMs: number, task: () => Promise<unknown>, onError: (error: unknown) => void): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    task()
      .catch(onError)
      .finally(() => (running = false));
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
