/**
 * One service for all tabs of the origin. The tab holding the Web Lock `name` runs the real service (for
 * Strata: the demo engine on IndexedDB, whose in-memory mirror assumes it is the database's only writer);
 * every other tab sends its calls over the BroadcastChannel `name` and gets the leader's events (the feed)
 * back. When the leader tab closes, the next tab in the lock queue starts the service on the same database
 * and announces itself; calls the old leader had not answered fail (like a dropped HTTP request) instead of
 * being replayed, so nothing is applied twice.
 */
import { runAsLeader, type LeaderHandle, type LeaderOptions } from './leader';

type Method = (...args: never[]) => Promise<unknown>;
type Invoke = (...args: unknown[]) => Promise<unknown>;

/** What the leader runs: async methods whose arguments and results survive structured clone, and events. */
export interface Leadable<M extends Record<string, Method>, E> {
  methods: M;
  subscribe?(listener: (event: E) => void): () => void;
  dispose?(): void;
}

export interface TabRelay<M extends Record<string, Method>, E> {
  /** Same signatures as the service's; answered locally when leading, by the leader otherwise. */
  methods: M;
  subscribe(listener: (event: E) => void): () => void;
  isLeader(): boolean;
  dispose(): void;
}

/** The slice of BroadcastChannel the relay uses (tests pass an in-memory bus). */
export interface ChannelLike {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  close(): void;
}

export interface RelayOptions<M extends Record<string, Method>, E> {
  /** Lock and channel name. */
  name: string;
  methods: readonly (keyof M & string)[];
  lead: () => Leadable<M, E>;
  /** Arguments that do not clone as they are (FormData) are converted on the way and back. */
  encode?: (arg: unknown) => unknown;
  decode?: (arg: unknown) => unknown;
  channel?: ChannelLike;
  locks?: LeaderOptions['locks'];
  tabId?: string;
}

type Wire =
  | { kind: 'who' }
  | { kind: 'hello'; leader: string }
  | { kind: 'call'; id: number; from: string; to: string; method: string; args: unknown[] }
  | { kind: 'result'; id: number; to: string; ok: true; value: unknown }
  | { kind: 'result'; id: number; to: string; ok: false; error: { name: string; message: string } }
  | { kind: 'event'; event: unknown };

const KINDS: ReadonlySet<string> = new Set<Wire['kind']>(['who', 'hello', 'call', 'result', 'event']);

function isWire(value: unknown): value is Wire {
  return (
    typeof value === 'object' &&
    value !== null &&
    'kind' in value &&
    typeof value.kind === 'string' &&
    KINDS.has(value.kind)
  );
}

interface Pending {
  leader: string;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

export class LeaderLostError extends Error {
  override name = 'LeaderLostError';
}

export function createTabRelay<M extends Record<string, Method>, E = never>(
  options: RelayOptions<M, E>,
): TabRelay<M, E> {
  const tabId = options.tabId ?? crypto.randomUUID();
  const channel = options.channel ?? new BroadcastChannel(options.name);
  const encode = options.encode ?? ((arg: unknown) => arg);
  const decode = options.decode ?? ((arg: unknown) => arg);
  const listeners = new Set<(event: E) => void>();
  const pending = new Map<number, Pending>();
  let local: Leadable<M, E> | undefined;
  let leader: string | undefined;
  let nextId = 1;
  let announced: () => void = () => undefined;
  let known = new Promise<void>((resolve) => (announced = resolve));

  let closed = false;
  // A leader stepping down may still finish a call after dispose(); a closed channel throws on post.
  const post = (message: Wire) => {
    if (!closed) channel.postMessage(message);
  };
  const emit = (event: E) => {
    for (const listener of listeners) listener(event);
  };
  const invokeLocal = (service: Leadable<M, E>, method: string, args: unknown[]) => {
    const fn = service.methods[method] as unknown as Invoke | undefined;
    if (!fn) return Promise.reject(new Error(`relay: no method ${method}`));
    return fn(...args);
  };

  /** A (new) leader is known: calls sent to any other tab will never be answered. */
  const follow = (id: string) => {
    for (const [callId, call] of pending) {
      if (call.leader === id) continue;
      pending.delete(callId);
      call.reject(new LeaderLostError('the tab serving this call closed before answering'));
    }
    leader = id;
    announced();
  };

  channel.addEventListener('message', (event: MessageEvent) => {
    // Another tab of this origin speaks the same wire; anything else on the channel is ignored.
    if (!isWire(event.data)) return;
    const message = event.data;
    switch (message.kind) {
      case 'who':
        if (local) post({ kind: 'hello', leader: tabId });
        break;
      case 'hello':
        if (message.leader !== leader) follow(message.leader);
        break;
      case 'call': {
        const service = local;
        if (!service || message.to !== tabId) break;
        invokeLocal(service, message.method, message.args.map(decode)).then(
          (value) => post({ kind: 'result', id: message.id, to: message.from, ok: true, value }),
          (error: unknown) => {
            const { name, message: text } = error instanceof Error ? error : new Error(String(error));
            post({
              kind: 'result',
              id: message.id,
              to: message.from,
              ok: false,
              error: { name, message: text },
            });
          },
        );
        break;
      }
      case 'result': {
        const call = message.to === tabId ? pending.get(message.id) : undefined;
        if (!call) break;
        pending.delete(message.id);
        if (message.ok) call.resolve(message.value);
        else call.reject(Object.assign(new Error(message.error.message), { name: message.error.name }));
        break;
      }
      case 'event':
        if (!local) emit(message.event as E);
        break;
    }
  });

  const election: LeaderHandle = runAsLeader(
    options.name,
    () => {
      const service = options.lead();
      local = service;
      const unsubscribe = service.subscribe?.((event) => {
        emit(event);
        post({ kind: 'event', event });
      });
      follow(tabId);
      post({ kind: 'hello', leader: tabId });
      return () => {
        unsubscribe?.();
        service.dispose?.();
        local = undefined;
        leader = undefined;
        known = new Promise<void>((resolve) => (announced = resolve));
      };
    },
    { locks: options.locks },
  );
  post({ kind: 'who' });

  const call = async (method: string, args: unknown[]): Promise<unknown> => {
    await known;
    const service = local;
    if (service) return invokeLocal(service, method, args);
    const to = leader ?? '';
    const id = nextId++;
    return new Promise((resolve, reject) => {
      pending.set(id, { leader: to, resolve, reject });
      post({ kind: 'call', id, from: tabId, to, method, args: args.map(encode) });
    });
  };

  const methods = Object.fromEntries(
    options.methods.map((method) => [method, (...args: unknown[]) => call(method, args)]),
  ) as unknown as M;

  return {
    methods,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    isLeader: () => local !== undefined,
    dispose() {
      election.stop();
      for (const call of pending.values()) call.reject(new LeaderLostError('relay disposed'));
      pending.clear();
      closed = true;
      channel.close();
    },
  };
}
