/**
 * Resident memory of the compiled server around uploads (audit M3): starts dist-server/main.js with the
 * production flags (docs/DEPLOY.md) on PostgreSQL (DATABASE_URL, a fresh schema dropped afterwards), signs
 * members up, uploads UPLOADS files of about 4.9 MiB each and prints the server's RSS (VmRSS) before,
 * right after, and after IDLE_MS idle. Run `npm run build:server` first, then
 * `DATABASE_URL=postgres://... npx tsx bench/upload-rss.ts`.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import type { BodyOf, ContractPath, DataOf, Envelope } from '../engine/index';
import { productionFlags } from './server/compile';

const UPLOADS = Number(process.env['UPLOADS'] ?? 10);
const SIZE = Math.floor(4.94 * 1024 * 1024);
const IDLE_MS = Number(process.env['IDLE_MS'] ?? 5_000);
const databaseUrl = process.env['DATABASE_URL'];
if (!databaseUrl) throw new Error('DATABASE_URL is required (PostgreSQL)');
const schema = `bench_${randomBytes(6).toString('hex')}`;
const port = 20_000 + Math.floor(Math.random() * 20_000);
const base = `http://127.0.0.1:${port}`;

const server = spawn(process.execPath, [...productionFlags(), 'dist-server/main.js'], {
  env: {
    ...process.env,
    DEMO: 'true',
    DATABASE_URL: databaseUrl,
    DB_SCHEMA: schema,
    PORT: String(port),
    METRICS_PORT: 'off',
    PBKDF2_ITERATIONS: '1000',
    LOG_LEVEL: 'warn',
  },
  stdio: ['ignore', 'inherit', 'inherit'],
});

const rssMb = (): number => {
  const status = readFileSync(`/proc/${server.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]) / 1024;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function call<P extends ContractPath>(path: P, body: BodyOf<P>, headers: Record<string, string> = {}) {
  const r = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  // The server answers a contract path with that path's envelope.
  return (await r.json()) as Envelope<DataOf<P>>;
}

try {
  for (let i = 0; ; i++) {
    if (i > 100) throw new Error('the server did not start');
    try {
      if ((await fetch(`${base}/livez`)).ok) break;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  /** A new member (each may store 50 MiB, ten of these files). */
  const member = async (n: number): Promise<Record<string, string>> => {
    const captcha = (await (await fetch(`${base}/index/index/verify`)).json()) as {
      data: { key: string; code: string };
    };
    const username = `rss${n}x${Date.now() % 100000}`;
    const registered = await call('/api/index/register', {
      username,
      password: 'secret1',
      repassword: 'secret1',
      key: 'key1',
      rekey: 'key1',
      email: `${username}@example.com`,
      question: 'First pet?',
      answer: 'Rex',
      verify: captcha.data.code,
      verifyKey: captcha.data.key,
    });
    if (registered.code !== 0) throw new Error(`register: ${registered.code} ${registered.msg}`);
    const login = await call('/api/index/login', { username, password: 'secret1' });
    const user = JSON.parse(login.data) as { id: number; token: string };
    return { Authorization: user.token, UserId: String(user.id) };
  };
  let headers = await member(0);
  await sleep(1_000);
  const before = rssMb();
  const started = performance.now();
  let peak = before;
  const codes: number[] = [];
  for (let i = 0; i < UPLOADS; i++) {
    if (i > 0 && i % 10 === 0) headers = await member(i);
    const bytes = randomBytes(SIZE);
    bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 0);
    const form = new FormData();
    form.append('file', new Blob([bytes], { type: 'image/png' }), `scan${i}.png`);
    const r = await fetch(`${base}/api/user/uploads`, { method: 'POST', headers, body: form });
    codes.push(((await r.json()) as { code: number }).code);
    peak = Math.max(peak, rssMb());
  }
  const seconds = (performance.now() - started) / 1000;
  const after = rssMb();
  await sleep(IDLE_MS);
  const idle = rssMb();
  console.log(
    JSON.stringify({
      uploads: UPLOADS,
      mib: +(SIZE / 1048576).toFixed(2),
      codes,
      rssMb: {
        before: +before.toFixed(1),
        peak: +peak.toFixed(1),
        after: +after.toFixed(1),
        idle: +idle.toFixed(1),
      },
      seconds: +seconds.toFixed(2),
    }),
  );
} finally {
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await client.end();
}
