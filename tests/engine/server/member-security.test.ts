/**
 * Member security on the live server (issue 27), on PostgreSQL when DATABASE_URL is set: two-factor
 * authentication over HTTP with its tables migrated (0008), the client's network taken from the connection
 * (a client cannot claim another), the device id header allowed by CORS, sessions ended on another device,
 * and authenticator secrets sealed with TOTP_ENCRYPTION_KEY, never stored plain.
 */
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataOf } from '../../../engine/index';
import { SqlStore } from '../../../server/sql-store';
import { register, startTestServer, type Envelope, type Session, type TestServer } from './serve';
import { dropSchema, freshSchema, sqlKind, testDriver } from './sql';

const schema = freshSchema();
const KEY = Buffer.alloc(32, 9).toString('base64');
let server: TestServer;
let store: SqlStore;

beforeAll(async () => {
  store = await SqlStore.open(await testDriver(), { schema });
  server = await startTestServer({
    storage: store,
    config: { corsOrigins: ['http://app.test'], totpEncryptionKey: KEY },
  });
});

afterAll(async () => {
  await server.close();
  await dropSchema(schema);
});

async function loginFrom(
  device: string,
  extra: Record<string, unknown> = {},
): Promise<Envelope & { session?: Session }> {
  const headers = {
    'Content-Type': 'application/json',
    'X-Device-Id': device,
    // A client cannot choose the address its sessions are listed under.
    'X-Strata-Client-Ip': '203.0.113.9',
  };
  const r = (await (
    await fetch(`${server.url}/api/index/login`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ username: 'ann', password: 'secret1', ...extra }),
    })
  ).json()) as Envelope<DataOf<'/api/index/login'>>;
  if (r.code !== 0) return r;
  const user = JSON.parse(r.data) as { id: string; token: string };
  return {
    ...r,
    session: {
      id: user.id,
      token: user.token,
      headers: { 'X-Device-Id': device, Authorization: user.token, UserId: user.id },
    },
  };
}

const code = () => generate({ secret, epoch: Math.floor(server.clock.now() / 1000) });
let secret = '';

describe(`member security over HTTP (${sqlKind})`, () => {
  it("A22 two-factor on: a new device needs the code; sessions list the connection's network", async () => {
    expect((await register(server, 'ann')).code).toBe(0);
    const phone = (await loginFrom('ann-phone-device-01')).session as Session;
    const setup = await server.call('/api/security/totp/setup', { password: 'secret1' }, phone);
    secret = setup.data.secret;
    expect((await server.call('/api/security/totp/enable', { code: await code() }, phone)).code).toBe(0);

    expect((await loginFrom('ann-laptop-device-2')).code).toBe(6101);
    server.clock.advance(30_000);
    const laptop = await loginFrom('ann-laptop-device-2', { code: await code() });
    expect(laptop.code).toBe(0);

    const sessions = (await server.call('/api/security/sessions', undefined, phone)).data;
    expect(sessions.list).toHaveLength(2);
    for (const s of sessions.list) expect(s).toMatchObject({ place: 'loopback', network: '127.0.0.0/24' });
    expect((await server.call('/api/security/sessions/logoutOthers', undefined, phone)).data).toEqual({
      ended: 1,
    });
    expect((await server.call('/api/user/getuser', undefined, laptop.session)).code).toBe(401);
  });

  it('A26 the authenticator key is sealed in PostgreSQL, under the configured key', async () => {
    const { rows } = await store.driver.query<{ v: unknown }>(`SELECT v FROM ${schema}.member_security`);
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows[0]?.v)).not.toContain(secret);
    expect(JSON.stringify(rows[0]?.v)).toMatch(/"box":"v1\./);
    const { rows: meta } = await store.driver.query(
      `SELECT id FROM ${schema}.site_meta WHERE id = 'security.secretBoxKey'`,
    );
    expect(meta).toHaveLength(0);
  });

  it('CORS lets the app send its device id', async () => {
    const preflight = await fetch(`${server.url}/api/index/login`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://app.test',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type,x-device-id',
      },
    });
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('x-device-id');
  });
});
