/**
 * One server instance for the storage bench (bench/storage.bench.ts), in a process of its own so that its
 * start-up time and memory are its own: starts the server on PostgreSQL (DATABASE_URL, DB_SCHEMA) on an
 * ephemeral port, answers a few reads of seeded members through the engine, prints its figures as one JSON
 * line and exits.
 */
import { startServer } from '../server/app';
import { configFromEnv } from '../server/config';

const loadedMs = performance.now();
const server = await startServer({ config: { ...configFromEnv(), port: 0, settleEveryMs: 0 } });
// performance.now() counts from process start: module loading (tsx compiling TypeScript), the migrations
// check, engine init and listening included; openMs is startServer alone.
const startupMs = performance.now();
const openMs = startupMs - loadedMs;
const rssStarted = process.memoryUsage().rss;
const market = await fetch(`${server.url}/api/market/list`, { method: 'POST', body: '{}' });
const answered = market.status;
const rssServing = process.memoryUsage().rss;
await server.close();
console.log(JSON.stringify({ startupMs, openMs, rssStarted, rssServing, answered }));
process.exit(0);
