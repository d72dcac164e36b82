/**
 * The open-loop load of bench/server.bench.ts, in a process of its own: requests are sent at a constant
 * arrival rate whatever the server's answers (as k6's constant-arrival-rate), each on a keep-alive
 * connection of a pool of up to `maxConnections` per URL (a request finds an idle one or opens one), and
 * each request's latency counts from the moment it was due, not from when a connection was free, so a slow
 * answer is not hidden by fewer requests sent (no coordinated omission). Request i goes to URL i mod n with
 * lane i mod lanes.length (its own headers and body). Reads its spec as JSON on argv[2]; prints one JSON line.
 */
import { Agent, request } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';

export interface OpenLoopSpec {
  urls: string[];
  /** Requests per second, over all URLs. */
  rate: number;
  seconds: number;
  lanes: Array<{ headers: Record<string, string>; body: string }>;
  /** Connections per URL at most (default 512). */
  maxConnections?: number;
}

export interface OpenLoopResult {
  offered: number;
  sent: number;
  completed: number;
  /** Answers with envelope code 0. */
  ok: number;
  /** Answers with another envelope code (a refusal), by code. */
  refused: Record<string, number>;
  errors: number;
  /** Completed requests per second. */
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  cpuMs: number;
  /** How late requests left this process after they were due (its own lag, in their latency), ms. */
  lateP99: number;
  lateMax: number;
  /** This process's event loop delay, ms. */
  loopP99: number;
  loopMax: number;
}

const spec = JSON.parse(process.argv[2] ?? '{}') as OpenLoopSpec;
const agents = spec.urls.map(() => new Agent({ keepAlive: true, maxSockets: spec.maxConnections ?? 512 }));
const targets = spec.urls.map((u) => new URL(u));
const latencies: number[] = [];
const late: number[] = [];
const loop = monitorEventLoopDelay({ resolution: 1 });
loop.enable();
const refused: Record<string, number> = {};
let sent = 0;
let completed = 0;
let ok = 0;
let errors = 0;

function send(i: number, due: number): Promise<void> {
  const target = targets[i % targets.length] as URL;
  const lane = spec.lanes[i % spec.lanes.length];
  const body = Buffer.from(lane?.body ?? '{}');
  return new Promise((resolve) => {
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        agent: agents[i % agents.length],
        headers: { 'content-type': 'application/json', 'content-length': body.length, ...lane?.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          latencies.push(performance.now() - due);
          completed++;
          const text = Buffer.concat(chunks).toString();
          const code = /"code":(-?\d+)/.exec(text)?.[1] ?? `http ${res.statusCode}`;
          if (code === '0') ok++;
          else refused[code] = (refused[code] ?? 0) + 1;
          resolve();
        });
        res.on('error', () => {
          errors++;
          resolve();
        });
      },
    );
    req.on('error', () => {
      errors++;
      resolve();
    });
    req.end(body);
    late.push(performance.now() - due);
  });
}

const inFlight = new Set<Promise<void>>();
const start = performance.now();
const total = Math.round(spec.rate * spec.seconds);
await new Promise<void>((resolve) => {
  const tick = () => {
    const now = performance.now();
    // Every request due by now goes out, each timed from its own due moment.
    while (sent < total) {
      const due = start + (sent * 1000) / spec.rate;
      if (due > now) break;
      const p = send(sent, due);
      sent++;
      inFlight.add(p);
      void p.then(() => inFlight.delete(p));
    }
    if (sent >= total) {
      clearInterval(timer);
      resolve();
    }
  };
  const timer = setInterval(tick, 1);
});
await Promise.all(inFlight);
const elapsed = (performance.now() - start) / 1000;
for (const agent of agents) agent.destroy();
latencies.sort((a, b) => a - b);
late.sort((a, b) => a - b);
const quantile = (list: number[], q: number) =>
  Math.round((list[Math.min(list.length - 1, Math.floor(q * list.length))] ?? NaN) * 10) / 10;
const at = (q: number) => quantile(latencies, q);
const cpu = process.cpuUsage();
const result: OpenLoopResult = {
  offered: spec.rate,
  sent,
  completed,
  ok,
  refused,
  errors,
  rps: Math.round(completed / elapsed),
  p50: at(0.5),
  p90: at(0.9),
  p99: at(0.99),
  max: at(1),
  cpuMs: (cpu.user + cpu.system) / 1000,
  lateP99: quantile(late, 0.99),
  lateMax: quantile(late, 1),
  loopP99: Math.round(loop.percentile(99) / 1e4) / 100,
  loopMax: Math.round(loop.max / 1e4) / 100,
};
console.log(JSON.stringify(result));
