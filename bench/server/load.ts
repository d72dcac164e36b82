/**
 * The load generator of bench/server.bench.ts, in a process of its own (so it shares no event loop with a
 * server): autocannon against every URL given; connection i goes to URL i mod n, as an L4 load balancer
 * spreads keep-alive connections (so no proxy, and no proxy cost, sits between). Reads its load as JSON on
 * argv[2] and prints autocannon's result as one JSON line. With `lanes`, connection i sends lane i mod
 * lanes.length (its own headers and body) for the whole run, so 50 connections can be 50 members.
 */
import { createRequire } from 'node:module';

export interface LoadSpec {
  urls: string[];
  connections: number;
  seconds: number;
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  lanes?: Array<{ headers: Record<string, string>; body: string }>;
}

/** What this script uses of autocannon (it ships no types). */
interface Client {
  setHeadersAndBody(headers: Record<string, string>, body: string): void;
}
type Autocannon = (options: {
  url: string[];
  connections: number;
  duration: number;
  method: string;
  headers: Record<string, string>;
  body?: string;
  setupClient?: (client: Client) => void;
}) => Promise<unknown>;

const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;
const spec = JSON.parse(process.argv[2] ?? '{}') as LoadSpec;
const headers = { 'content-type': 'application/json', ...spec.headers };
const lanes = spec.lanes ?? [];
let next = 0;

const result = await autocannon({
  url: spec.urls,
  connections: spec.connections,
  duration: spec.seconds,
  method: spec.method,
  headers,
  body: spec.body,
  setupClient:
    lanes.length > 0
      ? (client) => {
          const lane = lanes[next++ % lanes.length];
          if (lane) client.setHeadersAndBody({ ...headers, ...lane.headers }, lane.body);
        }
      : undefined,
});
// The generator's own CPU time (user + system, ms), for the bench's CPU account.
const cpu = process.cpuUsage();
console.log(JSON.stringify({ ...(result as object), cpuMs: (cpu.user + cpu.system) / 1000 }));
