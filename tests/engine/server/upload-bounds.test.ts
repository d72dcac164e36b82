/**
 * Upload storage bounds (audit M3, docs/DEPLOY.md "Uploads"): on SQL storage an upload streams into the
 * upload store chunk by chunk, refused with 413 once it passes 5 MiB (its chunks deleted: nothing stored),
 * and each client IP is held to UPLOADS_PER_IP attempts an hour and UPLOAD_BYTES_PER_IP bytes a day (429),
 * all uploads to UPLOAD_STORAGE_MAX (507). On PostgreSQL when DATABASE_URL is set, else PGlite.
 */
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import type { ServerConfig } from '../../../server/config';
import { SqlStore } from '../../../server/sql-store';
import { UploadStore } from '../../../server/upload-store';
import { signUp, startTestServer, type Session, type TestServer } from './serve';
import { dropSchema, freshSchema, sqlKind, testDriver } from './sql';

const MIB = 1024 * 1024;
const schemas: string[] = [];
const servers: TestServer[] = [];

afterEach(() => {
  vi.restoreAllMocks();
});

afterAll(async () => {
  for (const server of servers) await server.close();
  for (const schema of schemas) await dropSchema(schema);
});

async function serverWith(config: Partial<ServerConfig>): Promise<{ server: TestServer; schema: string }> {
  const schema = freshSchema();
  schemas.push(schema);
  const storage = await SqlStore.open(await testDriver(), { schema });
  const server = await startTestServer({ storage, config: { loginPerIpPerMinute: 1_000, ...config } });
  servers.push(server);
  return { server, schema };
}

/** A PNG-signed file of `size` bytes. */
function png(size: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size).fill(7);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return bytes;
}

/** POST /api/user/uploads from `ip` (Fastify's inject: the whole request path, the body streamed in). */
async function upload(
  server: TestServer,
  session: Session,
  bytes: Uint8Array,
  ip = '127.0.0.1',
): Promise<{ code: number; msg: string; data: { url?: string } | null }> {
  const boundary = `strata-${crypto.randomUUID()}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="scan.png"\r\n` +
        `Content-Type: image/png\r\n\r\n`,
    ),
    Buffer.from(bytes),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const response = await server.app.inject({
    method: 'POST',
    url: '/api/user/uploads',
    remoteAddress: ip,
    headers: { ...session.headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload,
  });
  expect(response.statusCode).toBe(200);
  return response.json();
}

async function rows(
  server: TestServer,
  schema: string,
): Promise<{ blobs: number; chunks: number; files: number }> {
  const d = await testDriver();
  try {
    const {
      rows: [r],
    } = await d.query<{ blobs: string; chunks: string; files: string }>(
      `SELECT (SELECT count(*) FROM ${schema}.upload_blobs)::text AS blobs,
              (SELECT count(*) FROM ${schema}.upload_chunks)::text AS chunks,
              (SELECT count(*) FROM ${schema}.uploads)::text AS files`,
    );
    return { blobs: Number(r?.blobs), chunks: Number(r?.chunks), files: Number(r?.files) };
  } finally {
    await d.close();
  }
}

describe(`upload bounds (${sqlKind})`, () => {
  it('a file past 5 MiB is refused while it streams (413): its chunks were written, then deleted, nothing stored', async () => {
    const { server, schema } = await serverWith({});
    const ann = await signUp(server, 'ann');
    const writes = vi.spyOn(UploadStore.prototype, 'write');
    // Over a real connection, as a member's upload arrives: in pieces.
    const form = new FormData();
    form.append('file', new Blob([png(5 * MIB + 300 * 1024)], { type: 'image/png' }), 'scan.png');
    const response = await fetch(`${server.url}/api/user/uploads`, {
      method: 'POST',
      headers: ann.headers,
      body: form,
    });
    expect(await response.json()).toMatchObject({ code: 413, msg: 'The file is larger than 5 MiB' });
    // Streamed: 256 KiB chunks went to the store until the limit was met (20 make 5 MiB), none after it,
    // and none is left.
    expect(writes.mock.calls.length).toBeGreaterThanOrEqual(19);
    expect(writes.mock.calls.length).toBeLessThanOrEqual(20);
    for (const [, , bytes] of writes.mock.calls) expect(bytes.length).toBe(256 * 1024);
    expect(await rows(server, schema)).toEqual({ blobs: 0, chunks: 0, files: 0 });
    // A file of exactly 5 MiB is taken, and read back by its owner byte for byte.
    const five = png(5 * MIB);
    const ok = await upload(server, ann, five);
    expect(ok.code).toBe(0);
    expect(await rows(server, schema)).toEqual({ blobs: 1, chunks: 20, files: 1 });
    const back = await server.app.inject({ method: 'GET', url: String(ok.data?.url), headers: ann.headers });
    expect(back.headers['content-type']).toBe('image/png');
    expect(back.rawPayload.equals(Buffer.from(five))).toBe(true);
    // A file that is not an image or PDF is refused at its first bytes, and leaves nothing either.
    const text = new TextEncoder().encode('<svg onload=alert(1)>'.repeat(20_000));
    expect((await upload(server, ann, text)).code).toBe(400);
    expect(await rows(server, schema)).toEqual({ blobs: 1, chunks: 20, files: 1 });
    // PGlite (no DATABASE_URL) writes 10 MiB of bytea slowly on a busy machine.
  }, 90_000);

  it('per client IP: UPLOADS_PER_IP attempts an hour and UPLOAD_BYTES_PER_IP bytes a day, then 429; other IPs unaffected', async () => {
    const { server, schema } = await serverWith({ uploadsPerIpPerHour: 4, uploadBytesPerIp: 12 * MIB });
    const ann = await signUp(server, 'ann');
    const bob = await signUp(server, 'bob');
    // Volume: each upload reserves 5 MiB until it is complete, so 3 MiB files: 0+5, 3+5, 6+5 fit in 12 MiB,
    // 9+5 does not.
    const codes: number[] = [];
    for (let i = 0; i < 4; i++) codes.push((await upload(server, ann, png(3 * MIB), '10.0.0.1')).code);
    expect(codes).toEqual([0, 0, 0, 429]);
    expect((await rows(server, schema)).blobs).toBe(3);
    // Attempts: the fifth from the IP is refused before its body is read, whoever sends it.
    const fifth = await upload(server, bob, png(1024), '10.0.0.1');
    expect(fifth).toMatchObject({ code: 429 });
    expect(fifth.msg).toMatch(/4 an hour/);
    // Another address is not held to them.
    expect((await upload(server, bob, png(3 * MIB), '10.0.0.2')).code).toBe(0);
    expect(await rows(server, schema)).toMatchObject({ blobs: 4, files: 4 });
  });

  it('overall: UPLOAD_STORAGE_MAX bounds all uploads together (507), from any address; nothing is stored past it', async () => {
    const { server, schema } = await serverWith({ uploadStorageMaxBytes: 10 * MIB });
    const members = [await signUp(server, 'ann'), await signUp(server, 'bob'), await signUp(server, 'cy')];
    const codes: number[] = [];
    for (const [i, member] of members.entries())
      codes.push((await upload(server, member, png(3 * MIB), `10.0.1.${i + 1}`)).code);
    // 0+5 and 3+5 fit in 10 MiB; 6+5 does not.
    expect(codes).toEqual([0, 0, 507]);
    const full = await upload(server, members[2] as Session, png(1024), '10.0.1.9');
    expect(full).toMatchObject({ code: 507 });
    expect(full.msg).toMatch(/upload storage is full/);
    expect(await rows(server, schema)).toEqual({ blobs: 2, chunks: 24, files: 2 });
  });

  it('an upload the engine refuses (no session) leaves no blob behind', async () => {
    const { server, schema } = await serverWith({});
    const nobody: Session = { id: '0', token: 'none', headers: { Authorization: 'none', UserId: '1' } };
    expect((await upload(server, nobody, png(1024))).code).toBe(401);
    await vi.waitFor(async () =>
      expect(await rows(server, schema)).toEqual({ blobs: 0, chunks: 0, files: 0 }),
    );
  });
});
