import { afterEach, describe, expect, it } from 'vitest';
import type { FeedMessage } from '../../engine/index';
import type { EngineHost } from '../worker/engine-host';
import * as Comlink from 'comlink';
import { exposeEngineHost, workerApi } from '../worker/expose';
import { createWorkerTransport, type WorkerTransport } from './transport-worker';

/** The Comlink wiring of the worker, over a MessageChannel instead of a Worker (no browser needed). */
function connect(host: EngineHost): WorkerTransport {
  const channel = new MessageChannel();
  exposeEngineHost(host, channel.port1);
  return createWorkerTransport(channel.port2, () => {
    channel.port1.close();
    channel.port2.close();
  });
}

function recordingHost() {
  const listeners = new Set<(m: FeedMessage) => void>();
  const bodies: unknown[] = [];
  let now = 1_000;
  const host: EngineHost = {
    handle: async (request) => {
      bodies.push(request.body);
      return { status: 200, body: { code: 911, msg: 'review', data: { path: request.path } } };
    },
    settle: async () => undefined,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    now: async () => now,
    advance: async (ms) => (now += ms),
    reset: async () => {
      now = 0;
    },
    dispose: () => undefined,
  };
  return { host, bodies, emit: (m: FeedMessage) => listeners.forEach((l) => l(m)), listeners };
}

let transport: WorkerTransport | undefined;
afterEach(() => transport?.close());

describe('the worker transport', () => {
  it('sends a request to the worker and answers { status, body } unchanged', async () => {
    const { host, bodies } = recordingHost();
    transport = connect(host);
    const response = await transport.request({
      method: 'POST',
      path: '/api/withdraw/submit',
      headers: { Authorization: 't', UserId: '1' },
      body: { amount: '12.5' },
    });
    expect(response).toEqual({
      status: 200,
      body: { code: 911, msg: 'review', data: { path: '/api/withdraw/submit' } },
    });
    expect(bodies).toEqual([{ amount: '12.5' }]);
  });

  it('carries an upload as FormData with the file name, type and bytes intact', async () => {
    const { host, bodies } = recordingHost();
    transport = connect(host);
    const form = new FormData();
    form.append('file', new File([new Uint8Array([1, 2, 3])], 'id-front.png', { type: 'image/png' }));
    await transport.request({ method: 'POST', path: '/api/user/uploads', body: form });
    const received = bodies[0];
    expect(received).toBeInstanceOf(FormData);
    const file = (received as FormData).get('file') as File;
    expect(file.name).toBe('id-front.png');
    expect(file.type).toBe('image/png');
    expect([...new Uint8Array(await file.arrayBuffer())]).toEqual([1, 2, 3]);
  });

  it('fans the feed out to every listener through one worker subscription', async () => {
    const { host, emit, listeners } = recordingHost();
    transport = connect(host);
    const a: FeedMessage[] = [];
    const b: FeedMessage[] = [];
    const stopA = transport.subscribe((m) => a.push(m));
    transport.subscribe((m) => b.push(m));
    await expect.poll(() => listeners.size).toBe(1);
    emit({ type: 'balance', data: { memberId: '1' } });
    await expect.poll(() => b.length).toBe(1);
    stopA();
    emit({ type: 'ping', data: null });
    await expect.poll(() => b.length).toBe(2);
    expect(a).toEqual([{ type: 'balance', data: { memberId: '1' } }]);
  });

  it('carries what the engine emits in one turn as one batch, in order', async () => {
    const { host, emit } = recordingHost();
    const batches: FeedMessage[][] = [];
    const listener = Object.assign((messages: FeedMessage[]) => void batches.push(messages), {
      [Comlink.proxyMarker]: true as const,
    });
    workerApi(host).subscribe(listener);
    emit({ type: 'balance', data: { memberId: '1' } });
    emit({ type: 'balance', data: { memberId: '2' } });
    emit({ type: 'ping', data: null });
    await expect.poll(() => batches.length).toBe(1);
    expect(batches[0]?.map((m) => m.type)).toEqual(['balance', 'balance', 'ping']);
    expect(batches[0]?.[1]).toEqual({ type: 'balance', data: { memberId: '2' } });
    emit({ type: 'ping', data: null });
    await expect.poll(() => batches.length).toBe(2);
    expect(batches[1]).toEqual([{ type: 'ping', data: null }]);
  });

  it('exposes the demo controls', async () => {
    const { host } = recordingHost();
    transport = connect(host);
    expect(await transport.demo.advance(500)).toBe(1_500);
    expect(await transport.demo.now()).toBe(1_500);
    // The fake engine's clock stands still at 1,500 ms, so its offset from the wall clock is 1,500 - Date.now().
    expect(transport.demo.clock() - 1_500).toBeLessThanOrEqual(5);
    await transport.demo.reset();
    expect(await transport.demo.now()).toBe(0);
    expect(Math.abs(transport.demo.clock())).toBeLessThanOrEqual(5);
  });
});
