/**
 * The demo transport end to end without a browser: the app-side transport, Comlink over a MessageChannel,
 * the worker's host and the real engine on (fake) IndexedDB.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { BodyOf, ContractPath, DataOf, Envelope } from '../../engine/index';
import { createWorkerTransport, type WorkerTransport } from '../api/transport-worker';
import { createEngineHost, type EngineHost } from './engine-host';
import { exposeEngineHost } from './expose';
import { memoryOffsetStore } from './offset-store';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

let host: EngineHost | undefined;
let transport: WorkerTransport | undefined;
afterEach(() => {
  transport?.close();
  host?.dispose();
});

function connect(storage: string): WorkerTransport {
  host = createEngineHost({ storage, settleEveryMs: 0, offsets: memoryOffsetStore() });
  const channel = new MessageChannel();
  exposeEngineHost(host, channel.port1);
  transport = createWorkerTransport(channel.port2, () => channel.port1.close());
  return transport;
}

/** A contract call through the worker transport, typed as the engine harness's (tests/engine/harness.ts). */
async function call<P extends ContractPath>(
  t: WorkerTransport,
  path: P,
  body?: BodyOf<P>,
  headers?: Record<string, string>,
): Promise<Envelope<DataOf<P>>> {
  const method = path === '/index/index/verify' || path === '/api/site/getsite' ? 'GET' : 'POST';
  // The engine answers a contract path with that path's envelope (engine/router.ts types its handlers so).
  return (await t.request({ method, path, body, headers })).body as Envelope<DataOf<P>>;
}

async function registerAndLogin(t: WorkerTransport, username: string) {
  const captcha = (await call(t, '/index/index/verify')).data;
  const registered = await call(t, '/api/index/register', {
    username,
    password: 'secret1',
    repassword: 'secret1',
    key: '1234',
    rekey: '1234',
    email: `${username}@example.test`,
    verify: captcha.code ?? '',
    verifyKey: captcha.key,
    question: 'First pet?',
    answer: 'Rex',
  });
  expect(registered.code, registered.msg).toBe(0);
  const login = await call(t, '/api/index/login', { username, password: 'secret1' });
  const user = JSON.parse(login.data) as { id: string; token: string };
  return { Authorization: user.token, UserId: String(user.id) };
}

describe('the demo transport on the real engine', () => {
  it('registers, logs in and uploads a file through the worker wiring', async () => {
    const t = connect('it-demo-1');
    const site = await call(t, '/api/site/getsite');
    expect(site).toMatchObject({ code: 0, data: { demo: true } });
    const auth = await registerAndLogin(t, 'alice1');
    const form = new FormData();
    form.append('file', new File([PNG], 'front.png', { type: 'image/png' }));
    const upload = (await t.request({ method: 'POST', path: '/api/user/uploads', body: form, headers: auth }))
      .body;
    expect(upload.code, upload.msg).toBe(0);
    expect(upload.data).toEqual({ url: expect.stringMatching(/^\/uploads\//) });
    const profile = await call(t, '/api/user/getuser', undefined, auth);
    expect(profile.data).toMatchObject({ username: 'alice1', vip: 'vip0' });
  });

  it('fast-forward moves the engine clock and reset forgets every member', async () => {
    const t = connect('it-demo-2');
    const auth = await registerAndLogin(t, 'bob1');
    const before = await t.demo.now();
    const after = await t.demo.advance(86_400_000);
    expect(after - before).toBeGreaterThanOrEqual(86_400_000);
    await t.demo.reset();
    expect((await t.demo.now()) - Date.now()).toBeLessThan(60_000);
    const again = await call(t, '/api/user/getuser', undefined, auth);
    expect(again.code).toBe(401);
  });
});
