/**
 * Cross-tab notices on the BroadcastChannel 'strata'. The leader tab (src/pwa/leader.ts) runs the engine's
 * jobs and the sync; the other tabs learn here that data changed and refresh what they show. A channel does
 * not echo to its sender, so a tab never reacts to its own message.
 */
export const CHANNEL_NAME = 'strata';

export type StrataMessage =
  /** Data changed in IndexedDB; `topics` names what (e.g. 'balance', 'order', 'withdrawal'). */
  | { type: 'changed'; topics: string[] }
  /** The member logged out in one tab: every tab drops its session. */
  | { type: 'logout' }
  /** A newer version is upgrading the demo engine's database: every tab reloads into it. */
  | { type: 'reload' };

export function isStrataMessage(value: unknown): value is StrataMessage {
  if (typeof value !== 'object' || value === null) return false;
  const message = value as { type?: unknown; topics?: unknown };
  if (message.type === 'logout' || message.type === 'reload') return true;
  return (
    message.type === 'changed' &&
    Array.isArray(message.topics) &&
    message.topics.every((topic) => typeof topic === 'string')
  );
}

let channel: BroadcastChannel | undefined;

function shared(): BroadcastChannel | undefined {
  if (typeof BroadcastChannel === 'undefined') return undefined;
  channel ??= new BroadcastChannel(CHANNEL_NAME);
  return channel;
}

export function broadcast(message: StrataMessage): void {
  shared()?.postMessage(message);
}

/** Listens for other tabs' messages; anything not shaped like a StrataMessage is ignored. */
export function onBroadcast(listener: (message: StrataMessage) => void): () => void {
  const target = shared();
  if (!target) return () => undefined;
  const handler = (event: MessageEvent<unknown>) => {
    if (isStrataMessage(event.data)) listener(event.data);
  };
  target.addEventListener('message', handler);
  return () => target.removeEventListener('message', handler);
}

/** For tests: close the channel so the process can exit and the next test starts clean. */
export function closeBroadcastForTests(): void {
  channel?.close();
  channel = undefined;
}
