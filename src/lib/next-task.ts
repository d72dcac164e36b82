/**
 * Resolves in a new task: what follows runs after the browser has had a turn to paint and handle input.
 * Start-up work is split with it so that a slow phone never sees one long task (total blocking time).
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
