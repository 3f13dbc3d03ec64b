/**
 * Runs a task every `intervalMs`, never two runs at once (a run that lasts longer than the
 * interval skips the ticks it overlaps). A failed run is reported and the next tick runs again.
 * The timer does not keep the process alive. The returned function stops the timer and resolves
 * once a run in progress has finished (graceful shutdown: nothing is cut off midway).
 */
export function runPeriodically(intervalMs: number, task: () => Promise<unknown>, onError: (error: unknown) => void): () => Promise<void> {
  let running: Promise<void> | null = null;
  const timer = setInterval(() => {
    if (running) return;
    running = task()
      .then(() => undefined, onError)
      .finally(() => (running = null));
  }, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
