/**
 * Member uploads are private (docs/OPERATIONS.md "Operator API", image URLs): `GET /uploads/<id>` answers
 * the member who uploaded it and 404 to everyone else (another member, no session, an operator's token),
 * the operator route `GET /api/admin/uploads/<id>` answers the roles that may see it (identity documents:
 * review; payment proofs: every operator), and nothing is kept by a cache. Real HTTP, on PostgreSQL when
 * DATABASE_URL is set, else PGlite.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { SqlStore } from '../../../server/sql-store';

import { adminGet, makeOperator, type TestOperator } from './admin-helpers';

import { signUp, startTestServer, type Session, type TestServer } from './serve';

import { dropSchema, freshSchema, sqlKind, testDriver } from './sql';

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 9, 8, 7, 6]);
const JPEG = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 1, 2, 3]);

const schema = freshSchema();
let store: SqlStore;
let server: TestServer;
let ann: Session;
let bob: Session;
let reviewer: TestOperator;
let finance: TestOperator;
let admin: TestOperator;
/** Ann's identity document and payment proof, as the upload calls answered them. */
let idUrl: string;
let proofUrl: string;

async function upload(path: string, session: Session, bytes: Uint8Array, type: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), 'file');
  const r = (await (
    await fetch(`${server.url}${path}`, { method: 'POST', headers: session.headers, body: form })
  ).json()) as { code: number; data: { url: string } };
  if (r.code !== 0) throw new Error(`upload: ${r.code}`);
  return r.data.url;
}

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${path}`, { headers });
const bearer = (op: TestOperator) => ({ Authorization: `Bearer ${op.token}` });
const adminUrl = (url: string) => url.replace(/^\/uploads\//, '/api/admin/uploads/');

async function envelopeOf(response: Response): Promise<{ code: number; msg: string; data: unknown }> {
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  expect(response.headers.get('cache-control')).toMatch(/no-store/);
  return (await response.json()) as { code: number; msg: string; data: unknown };
}

async function expectBytes(response: Response, bytes: Uint8Array, type: string): Promise<void> {
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe(type);
  expect(response.headers.get('cache-control')).toBe('private, no-store');
  expect(response.headers.get('content-security-policy')).toBe("default-src 'none'");
  expect(new Uint8Array(await response.arrayBuffer())).toEqual(bytes);
}

beforeAll(async () => {
  store = await SqlStore.open(await testDriver(), { schema });
  server = await startTestServer({ storage: store, config: { loginPerIpPerMinute: 1_000 } });
  ann = await signUp(server, 'ann');
  bob = await signUp(server, 'bob');
  reviewer = await makeOperator(store, server, 'rita', 'reviewer');
  finance = await makeOperator(store, server, 'fiona', 'finance');
  admin = await makeOperator(store, server, 'root', 'admin');
  idUrl = await upload('/api/user/uploads', ann, PNG, 'image/png');
  proofUrl = await upload('/api/Recharges/uploads', ann, JPEG, 'image/jpeg');
}, 60_000);

afterAll(async () => {
  await server.close();
  await dropSchema(schema);
});

describe(`private uploads (${sqlKind})`, () => {
  it('the owner gets the bytes (or the envelope when asking for JSON), never cached', async () => {
    await expectBytes(await get(idUrl, ann.headers), PNG, 'image/png');
    await expectBytes(await get(proofUrl, ann.headers), JPEG, 'image/jpeg');
    const json = await envelopeOf(await get(idUrl, { ...ann.headers, Accept: 'application/json' }));
    expect(json).toMatchObject({ code: 0, data: { type: 'image/png', size: PNG.length } });
  });

  it('another member, no session, an expired session and an operator token get the 404 of a missing id', async () => {
    const missing = await envelopeOf(await get('/uploads/999-0000000000000000', ann.headers));
    expect(missing.code).toBe(404);
    const strangers: Array<Record<string, string>> = [
      bob.headers,
      {},
      { Authorization: ann.token },
      { ...ann.headers, Authorization: 'not-a-token' },
      bearer(admin),
      { ...bearer(admin), UserId: ann.id },
    ];
    for (const headers of strangers) {
      for (const url of [idUrl, proofUrl]) {
        const answer = await envelopeOf(await get(url, headers));
        expect(answer).toEqual(missing);
      }
    }
  });

  it('operators see uploads at the operator route by role: identity documents need review', async () => {
    await expectBytes(await get(adminUrl(idUrl), bearer(reviewer)), PNG, 'image/png');
    await expectBytes(await get(adminUrl(idUrl), bearer(admin)), PNG, 'image/png');
    await expectBytes(await get(adminUrl(proofUrl), bearer(finance)), JPEG, 'image/jpeg');
    await expectBytes(await get(adminUrl(proofUrl), bearer(reviewer)), JPEG, 'image/jpeg');
    // Finance credits deposits but does not decide identity checks.
    expect((await envelopeOf(await get(adminUrl(idUrl), bearer(finance)))).code).toBe(403);
    // No operator session: 401 whatever the id, so no id is confirmed.
    for (const headers of [{}, ann.headers, { Authorization: `Bearer ${ann.token}` }]) {
      expect((await envelopeOf(await get(adminUrl(idUrl), headers))).code).toBe(401);
      expect((await envelopeOf(await get('/api/admin/uploads/1-nope', headers))).code).toBe(401);
    }
    for (const id of ['999-0000000000000000', 'x'.repeat(65), '%00', '..%2Fetc']) {
      expect((await envelopeOf(await get(`/api/admin/uploads/${id}`, bearer(admin)))).code).toBe(404);
    }
  });

  it('the queues hand the console the operator route of each image', async () => {
    const cert = await server.call(
      '/api/user/cert',
      { realName: 'Ann Lee', idNumber: 'A7654321', frontImage: idUrl, backImage: idUrl },
      ann,
    );
    expect(cert.code).toBe(0);
    const certs = (await adminGet(server, '/api/admin/certs', {}, reviewer.token)).data;
    expect(certs.list[0]).toMatchObject({ frontUrl: adminUrl(idUrl), backUrl: adminUrl(idUrl) });

    const submitted = await server.call(
      '/api/recharge/submit',
      { network: 'TRC20', amount: '5', proof: proofUrl },
      ann,
    );
    expect(submitted.code).toBe(0);
    const deposits = (await adminGet(server, '/api/admin/deposits', {}, reviewer.token)).data;
    expect(deposits.list[0]).toMatchObject({ proofUrl: adminUrl(proofUrl) });
  });
});
