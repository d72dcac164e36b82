/**
 * The demo engine shared by every tab: only the tab holding 'strata:engine' opens it (its store keeps an
 * in-memory mirror of IndexedDB and must be the only writer), runs its scheduled jobs and produces the feed;
 * other tabs' workers forward their calls to it (src/pwa/tab-relay.ts). src/worker/engine.worker.ts exposes
 * the result exactly as it exposed a local host.
 */
import type { FeedMessage } from '../../engine/index';
import type { EngineHost } from '../worker/engine-host';
import { createTabRelay, type RelayOptions } from './tab-relay';

export const ENGINE_LOCK = 'strata:engine';

type HostMethods = Pick<EngineHost, 'handle' | 'settle' | 'now' | 'advance' | 'reset'>;

const FORM = '__relayFormData';

/** Uploads reach the host as FormData, which BroadcastChannel cannot clone; its entries (Files) can. */
export function encodeForm(arg: unknown): unknown {
  if (typeof arg !== 'object' || arg === null) return arg;
  const body = (arg as { body?: unknown }).body;
  if (!(body instanceof FormData)) return arg;
  return { ...arg, body: { [FORM]: [...body.entries()] } };
}

export function decodeForm(arg: unknown): unknown {
  if (typeof arg !== 'object' || arg === null) return arg;
  const body = (arg as { body?: unknown }).body;
  if (typeof body !== 'object' || body === null || !(FORM in body)) return arg;
  const form = new FormData();
  for (const [name, value] of (body as Record<typeof FORM, Array<[string, string | File]>>)[FORM]) {
    form.append(name, value);
  }
  return { ...arg, body: form };
}

export function relayEngineHost(
  create: () => EngineHost,
  options: Pick<RelayOptions<HostMethods, FeedMessage>, 'channel' | 'locks' | 'tabId'> = {},
): EngineHost {
  const relay = createTabRelay<HostMethods, FeedMessage>({
    name: ENGINE_LOCK,
    methods: ['handle', 'settle', 'now', 'advance', 'reset'],
    lead: () => {
      const host = create();
      const { handle, settle, now, advance, reset } = host;
      return {
        methods: { handle, settle, now, advance, reset },
        subscribe: (listener) => host.subscribe(listener),
        dispose: () => host.dispose(),
      };
    },
    encode: encodeForm,
    decode: decodeForm,
    ...options,
  });
  return { ...relay.methods, subscribe: relay.subscribe, dispose: relay.dispose };
}
