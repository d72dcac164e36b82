/** Test doubles for the multi-tab helpers: Web Locks and BroadcastChannel, in memory. */
/**
 * An exclusive lock manager with the Web Locks semantics the module relies on: FIFO grants per name, the
 * lock held until the callback's promise settles, and an aborted signal rejecting a waiting request.
 */
export function fakeLocks() {
  const queues = new Map<string, Array<() => void>>();
  const held = new Set<string>();
  const grantNext = (name: string) => {
    const next = queues.get(name)?.shift();
    if (next) next();
  };
  const request = (name: string, options: LockOptions, callback: (lock: Lock | null) => Promise<unknown>) =>
    new Promise<unknown>((resolve, reject) => {
      const run = () => {
        held.add(name);
        callback({ name, mode: 'exclusive' })
          .then(resolve, reject)
          .finally(() => {
            held.delete(name);
            grantNext(name);
          });
      };
      const queue = queues.get(name) ?? [];
      queues.set(name, queue);
      options.signal?.addEventListener('abort', () => {
        const at = queue.indexOf(run);
        if (at >= 0) {
          queue.splice(at, 1);
          reject(new DOMException('aborted', 'AbortError'));
        }
      });
      if (held.has(name) || queue.length > 0) queue.push(run);
      else run();
    });
  return { request: request as LockManager['request'], held };
}

/**
 * A BroadcastChannel bus: each tab() is one channel object; a message reaches every other open channel
 * (never its sender), asynchronously and in order, as the real API does.
 */
export function fakeBus() {
  const open = new Set<{ deliver(data: unknown): void }>();
  return {
    tab() {
      const listeners = new Set<(event: MessageEvent) => void>();
      const self = {
        deliver(data: unknown) {
          for (const listener of listeners) listener({ data } as MessageEvent);
        },
      };
      open.add(self);
      return {
        postMessage(message: unknown) {
          if (!open.has(self)) throw new DOMException('channel is closed', 'InvalidStateError');
          const data = structuredClone(message);
          for (const other of open) if (other !== self) queueMicrotask(() => other.deliver(data));
        },
        addEventListener(_type: 'message', listener: (event: MessageEvent) => void) {
          listeners.add(listener);
        },
        close() {
          open.delete(self);
        },
      };
    },
  };
}
