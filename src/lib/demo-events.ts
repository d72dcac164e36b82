/**
 * "The simulated world changed" (a fast-forward ran reviews, confirmations, expiries and accruals): screens
 * that show server data reload on it, as they would after a push from the server.
 */
type Listener = () => void;
const listeners = new Set<Listener>();

export function announceDemoChange(): void {
  for (const listener of listeners) listener();
}

export function onDemoChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
