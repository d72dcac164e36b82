/**
 * First data in the member's hand (issue 25): how long a member waits for real numbers, not for the shell.
 * Each route is opened in headless Chromium (Debian's, through chrome-launcher and playwright-core) with
 * Lighthouse's mobile throttling applied through the DevTools protocol (Emulation.setCPUThrottlingRate 4;
 * Network.emulateNetworkConditions 150 ms round trip, 1.6 Mbps down, 750 kbps up), at 375x812, the build
 * served compressed as production serves it:
 * - demo mode: dist/ through bench/lighthouse.bench.ts's `startServer` (the server's static app, Brotli);
 * - live mode: dist-live/ (VITE_API_MODE=live, built when missing or older than dist/) served by the
 *   reference server itself, started as the live end-to-end tests start it (tests/e2e/live-server.ts:
 *   PostgreSQL in a fresh schema when DATABASE_URL is set, else PGlite).
 * Routes: /home (logged out), /market, /user and /order/transferRecord (a member with 5,000 transfer records).
 * Visits: cold (no HTTP cache, no service worker, no kept last screen (src/lib/snapshot.ts); a guest's /home in a fresh browser context; a member keeps
 * the device's storage in demo mode, where IndexedDB *is* the member's engine and replica, and keeps only the
 * login in live mode, so the replica is empty and everything comes from the server) and warm (the service
 * worker installed by a first visit, a second visit in a new tab).
 * Printed for each route, mode and visit: the first contentful paint and the first data, the paint of the
 * element that holds the screen's first real figure as the browser reports it through the Element Timing API
 * (`elementtiming`, src/lib/first-data.ts: the first quote row's price, the total assets, the first record's
 * amount), median of the runs with min-max; the text of that element (so a skeleton cannot pass for data)
 * and Chromium's own largest contentful paint in those runs, with its element. Then Lighthouse's FCP and LCP
 * (mobile preset, simulated throttling) for the same routes, and whether its LCP element is the data element.
 *
 * Seeding, 5,000 transfers for one member, the fastest honest way in each mode:
 * - demo: the engine's own API, called from the page over the demo engine's cross-tab channel
 *   (src/pwa/tab-relay.ts: the same calls another tab's worker sends): register two members, pay both on the
 *   simulated chain, move the simulated clock on, VIP3 for the recipient (5,000 USDT a day), then 10 pushes
 *   of 500 transfers through /api/sync/push; the app then pulls them into its replica as it always does;
 * - live: the same calls over HTTP against the server (tests/e2e/live-server.ts `fundedMember`).
 *
 * Environment (defaults in brackets); the whole default run is meant to stay within ~6 minutes on an idle
 * 2-core machine:
 * - FIRST_DATA_ROUTES [/home,/market,/user,/order/transferRecord]
 * - FIRST_DATA_MODES [demo,live]
 * - FIRST_DATA_VISITS [cold,warm]
 * - FIRST_DATA_RUNS [5] runs per route, mode and visit
 * - FIRST_DATA_LIGHTHOUSE [1] Lighthouse runs per route and mode (0: none)
 * - FIRST_DATA_RECORDS [5000] transfer records of the member
 * Limits, said where the figures are used: DevTools' CPU throttling slows the page's main thread only, so the
 * demo engine's worker runs at the machine's speed; the network emulation applies to the page's requests,
 * not to what the service worker answers from its cache (as on a phone). The figures move with the machine's
 * load: the load average is printed at the start and the end.
 */
import { existsSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { FIRST_DATA, type FirstDataName } from '../src/lib/first-data';
import {
  buildLiveApp,
  fundedMember,
  LIVE_DIST,
  startLiveServer,
  type LiveServer,
} from '../tests/e2e/live-server';
import { login } from '../tests/engine/server/serve';
import { CHROMIUM, FLAGS, lcpElement, lighthouseOn, startServer } from './lighthouse.bench';

export const name = 'First data in the member’s hand (issue 25): throttled, cold and warm, demo and live';

type Mode = 'demo' | 'live';
type Visit = 'cold' | 'warm';

const list = (value: string | undefined, fallback: string) =>
  (value ?? fallback)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

const ROUTES = list(process.env.FIRST_DATA_ROUTES, '/home,/market,/user,/order/transferRecord');
const MODES = list(process.env.FIRST_DATA_MODES, 'demo,live') as Mode[];
const VISITS = list(process.env.FIRST_DATA_VISITS, 'cold,warm') as Visit[];
const RUNS = Number(process.env.FIRST_DATA_RUNS ?? 5);
const LIGHTHOUSE_RUNS = Number(process.env.FIRST_DATA_LIGHTHOUSE ?? 1);
const RECORDS = Number(process.env.FIRST_DATA_RECORDS ?? 5_000);
const PUSH = 500;

/** What each route's first data is, and whether it needs the member. */
const ROUTE_DATA: Record<string, { timing: FirstDataName; member: boolean }> = {
  '/home': { timing: FIRST_DATA.quoteRow, member: false },
  '/market': { timing: FIRST_DATA.quoteRow, member: true },
  '/user': { timing: FIRST_DATA.balance, member: true },
  '/order/transferRecord': { timing: FIRST_DATA.recordRow, member: true },
};

/** Lighthouse's mobile preset (its constants: 150 ms, 1.6 * 1024 kbps down, 750 kbps up, 4x CPU). */
const THROTTLING = {
  offline: false,
  latency: 150,
  downloadThroughput: (1.6 * 1024 * 1024) / 8,
  uploadThroughput: (750 * 1024) / 8,
};
const CPU_SLOWDOWN = 4;
const DATA_TIMEOUT_MS = 90_000;
const PHONE = { width: 375, height: 812, deviceScaleFactor: 2, mobile: true };

interface Sample {
  fcp: number | null;
  data: number | null;
  text: string | null;
  lcp: number | null;
  lcpElement: string | null;
  /** The scripts the page had fetched when the first data painted (paths). */
  scripts: string[];
  /** When the document's last byte and the last of those scripts' last byte arrived (ms). */
  documentEnd: number | null;
  lastScriptEnd: number | null;
  /** The API calls that came back before the first data: "path start-end s". */
  calls: string[];
}

/**
 * Sent as source text (tsx would wrap a function literal's inner closures in a helper the page lacks): the
 * first contentful paint, the first Element Timing entry named `name`, and the largest contentful paint so
 * far when it came.
 */
const READ = (timing: string) => `new Promise((resolve) => {
  const out = { fcp: null, data: null, text: null, lcp: null, lcpElement: null, scripts: [], documentEnd: null, lastScriptEnd: null, calls: [] };
  const describe = (e) => e ? e.tagName.toLowerCase() + (e.className && typeof e.className === 'string' ? '.' + e.className.trim().split(/\\s+/).join('.') : '') + (e.getAttribute('elementtiming') ? '[elementtiming=' + e.getAttribute('elementtiming') + ']' : '') + ' "' + (e.textContent || '').trim().slice(0, 24) + '"' : null;
  const finish = () => { if (out.fcp !== null && out.data !== null) resolve(out); };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.name === 'first-contentful-paint') { out.fcp = e.startTime; finish(); }
  }).observe({ type: 'paint', buffered: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) { out.lcp = e.startTime; out.lcpElement = describe(e.element); }
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.identifier !== ${JSON.stringify(timing)} || out.data !== null) continue;
      out.data = e.renderTime || e.loadTime;
      out.text = e.element ? e.element.textContent : null;
      // The scripts the page had fetched by then (the worker's own imports are in the worker's timeline).
      const fetched = performance.getEntriesByType('resource')
        .filter((r) => /\\.js(\\?|$)/.test(r.name) && r.responseEnd <= out.data);
      out.scripts = fetched.map((r) => new URL(r.name).pathname);
      out.lastScriptEnd = fetched.reduce((end, r) => Math.max(end, r.responseEnd), 0);
      const navigation = performance.getEntriesByType('navigation')[0];
      out.documentEnd = navigation ? navigation.responseEnd : null;
      // The API calls made before it (live mode), with when each went out and came back.
      out.calls = performance.getEntriesByType('resource')
        .filter((r) => /\\/api\\//.test(r.name) && r.responseEnd <= out.data)
        .map((r) => new URL(r.name).pathname + ' ' + (r.startTime / 1000).toFixed(2) + '-' + (r.responseEnd / 1000).toFixed(2) + ' s');
      // The largest paint up to then is in the buffer already; let its observer run first.
      setTimeout(finish, 0);
    }
  }).observe({ type: 'element', buffered: true });
  setTimeout(() => resolve(out), ${DATA_TIMEOUT_MS});
})`;

/** Opens `url` in a new tab of `context` with the phone's size and Lighthouse's throttling; reads its paints. */
async function visit(context: BrowserContext, url: string, timing: FirstDataName): Promise<Sample> {
  const page = await context.newPage();
  try {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setDeviceMetricsOverride', PHONE);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', THROTTLING);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    await page.goto(url, { waitUntil: 'commit' });
    return (await page.evaluate(READ(timing))) as Sample;
  } finally {
    await page.close();
  }
}

/** What a cold visit must not find: the HTTP cache, the service worker and its caches (and more in live). */
async function clearForCold(context: BrowserContext, origin: string, mode: Mode): Promise<void> {
  const page = await context.newPage();
  try {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.clearBrowserCache');
    await cdp.send('Storage.clearDataForOrigin', {
      origin,
      // Demo: IndexedDB is the member's engine and replica (the device is the server); live: the replica
      // goes too, the login (localStorage) stays.
      storageTypes:
        mode === 'demo' ? 'service_workers,cache_storage' : 'service_workers,cache_storage,indexeddb',
    });
    // The last screens the shell puts back (src/lib/snapshot.ts) go too: a cold visit times the app's own path.
    await page.goto(`${origin}/favicon.svg`);
    await page.evaluate(
      `Object.keys(localStorage).filter((k) => k.startsWith('strata.snap:')).forEach((k) => localStorage.removeItem(k))`,
    );
  } finally {
    await page.close();
  }
}

/**
 * Polls `expression` (a promise of a boolean, evaluated in the page) until it is true. (Playwright's
 * waitForFunction takes a returned promise for a truthy value without awaiting it.)
 */
async function until(page: Page, expression: string, timeoutMs: number, required = true): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!(await page.evaluate(expression))) {
    if (Date.now() > deadline) {
      if (!required) return false;
      throw new Error(`not true within ${timeoutMs} ms: ${expression.slice(0, 80)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return true;
}

/** A first visit that installs the service worker and lets its first-install warm-up finish. */
async function installServiceWorker(context: BrowserContext, url: string): Promise<void> {
  const page = await context.newPage();
  try {
    await page.goto(url);
    await page.waitForFunction(() => navigator.serviceWorker?.controller != null, undefined, {
      timeout: 60_000,
    });
    // The runtime cache holds the on-demand locale chunks the page used (src/pwa/register.ts warmRuntimeCache).
    const cached = await until(
      page,
      `(async () => { for (const k of await caches.keys()) { const c = await caches.open(k); if ((await c.keys()).some((r) => /\\/locale-/.test(r.url))) return true; } return false; })()`,
      120_000,
      false,
    );
    if (!cached)
      console.log('    (the runtime cache held no locale chunk after 120 s: warm visits may fetch it)');
  } finally {
    await page.close();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** The gzip size of the built files the page fetched (as the build's budget counts them). */
function scriptsSize(dir: string, scripts: string[]): string {
  const files = [...new Set(scripts)].filter((f) => existsSync(join(dir, f)));
  const bytes = files.reduce((sum, f) => sum + gzipSync(readFileSync(join(dir, f)), { level: 9 }).length, 0);
  return `${files.length} files, ${(bytes / 1024).toFixed(1)} KiB gzip`;
}

function summary(samples: Sample[]): string {
  const figure = (values: (number | null)[]) => {
    const got = values.filter((v): v is number => v !== null);
    if (got.length === 0) return 'never'.padEnd(22);
    const missing = values.length - got.length;
    return `${seconds(median(got))} (${seconds(Math.min(...got))}-${seconds(Math.max(...got))})${missing ? ` ${missing} missing` : ''}`.padEnd(
      22,
    );
  };
  const text = samples.find((s) => s.text !== null)?.text ?? '-';
  const lcpAt = samples.map((s) => s.lcp).filter((v): v is number => v !== null);
  const lcpOn = [...new Set(samples.map((s) => s.lcpElement ?? '-'))].join(' / ');
  return (
    `first paint ${figure(samples.map((s) => s.fcp))} first data ${figure(samples.map((s) => s.data))}` +
    ` "${text.trim().slice(0, 24)}"; Chromium LCP ${lcpAt.length ? seconds(median(lcpAt)) : '-'} on ${lcpOn}`
  );
}

/**
 * What a cold first data is made of, as medians: the document's arrival, the page's scripts arriving over
 * the link (until the last one the first data needed), and what came after the last byte (evaluation,
 * React's render, the device read and, in demo mode, the engine worker's answer; in live mode the API's round
 * trip).
 */
function floor(samples: Sample[]): string {
  const of = (pick: (s: Sample) => number | null) =>
    median(samples.map(pick).filter((v): v is number => v !== null));
  const documentEnd = of((s) => s.documentEnd);
  const lastScript = of((s) => s.lastScriptEnd);
  const after = of((s) => (s.data === null || s.lastScriptEnd === null ? null : s.data - s.lastScriptEnd));
  return (
    `document by ${seconds(documentEnd)}, its scripts by ${seconds(lastScript)}, ` +
    `first data ${seconds(after)} after their last byte (medians)`
  );
}

interface Member {
  id: string;
  token: string;
  username: string;
}

/**
 * Demo seeding from a page of the origin whose app is running (its worker leads the demo engine): the engine's
 * API over the cross-tab channel, as another tab's worker would call it (src/pwa/tab-relay.ts's wire).
 */
const DEMO_SEED = (records: number, push: number) => `(async () => {
  const channel = new BroadcastChannel('strata:engine');
  const me = 'first-data-bench-' + Math.random().toString(36).slice(2);
  const pending = new Map();
  let leader, next = 1;
  channel.addEventListener('message', (event) => {
    const m = event.data;
    if (m.kind === 'hello') leader = m.leader;
    if (m.kind === 'result' && m.to === me && pending.has(m.id)) {
      const p = pending.get(m.id);
      pending.delete(m.id);
      if (m.ok) p.resolve(m.value); else p.reject(new Error(m.error.message));
    }
  });
  for (let i = 0; i < 600 && !leader; i++) { channel.postMessage({ kind: 'who' }); await new Promise((r) => setTimeout(r, 50)); }
  if (!leader) throw new Error('no demo engine answered on strata:engine');
  const invoke = (method, args) => new Promise((resolve, reject) => {
    const id = next++;
    pending.set(id, { resolve, reject });
    channel.postMessage({ kind: 'call', id, from: me, to: leader, method, args });
  });
  const call = async (path, body, s, method = 'POST') => {
    const r = await invoke('handle', [{ method, path, headers: s ? { Authorization: s.token, UserId: s.id } : {}, body }]);
    if (r.body.code !== 0) throw new Error(path + ': ' + r.body.code + ' ' + r.body.msg);
    return r.body.data;
  };
  const stamp = Date.now().toString(36);
  const signUp = async (username) => {
    const captcha = await call('/index/index/verify', undefined, undefined, 'GET');
    await call('/api/index/register', { username, password: 'secret1', repassword: 'secret1', key: 'key1', rekey: 'key1',
      email: username + '@example.test', question: 'First pet?', answer: 'Rex', verify: captcha.code, verifyKey: captcha.key });
    const user = JSON.parse(await call('/api/index/login', { username, password: 'secret1' }));
    return { id: String(user.id), token: user.token, username };
  };
  const sender = await signUp('fds' + stamp);
  const recipient = await signUp('fdr' + stamp);
  for (const [who, amount] of [[sender, String(${records} + 100)], [recipient, '2100']]) {
    const { address } = await call('/api/recharge/address', { network: 'TRC20' }, who);
    await call('/api/demo/chain/send', { network: 'TRC20', address, amount }, who);
  }
  await invoke('advance', [10 * 60_000]);
  await invoke('settle', []);
  await call('/api/Viplist/Buyvip', { level: 3, key: 'key1' }, recipient);
  let refused = 0;
  for (let i = 0; i < ${records}; i += ${push}) {
    const mutations = Array.from({ length: Math.min(${push}, ${records} - i) }, (_, j) => ({
      id: 'fd' + stamp + (i + j), name: '/api/transfer/submit', args: { account: recipient.username, amount: '1' } }));
    const { results } = await call('/api/sync/push', { clientId: 'first-data-bench', mutations }, sender);
    refused += results.filter((r) => r.code !== 0).length;
  }
  if (refused) throw new Error(refused + ' transfers refused');
  channel.close();
  return sender;
})()`;

/**
 * The member's replica on the device (strata-device, src/sync/db.ts): how many transfers it holds and whether
 * a pull has completed (the last page of a pull stores `pulledAt:<member>`).
 */
const REPLICA_STATE = (memberId: string) => `new Promise((resolve) => {
  const request = indexedDB.open('strata-device');
  request.onerror = () => resolve({ transfers: 0, pulled: false });
  request.onsuccess = () => {
    const db = request.result;
    if (!db.objectStoreNames.contains('replica')) { db.close(); resolve({ transfers: 0, pulled: false }); return; }
    const tx = db.transaction(['replica', 'meta']);
    const count = tx.objectStore('replica').index('[memberId+table]')
      .count(IDBKeyRange.only([${JSON.stringify(memberId)}, 'transfers']));
    const pulled = tx.objectStore('meta').get('pulledAt:' + ${JSON.stringify(memberId)});
    tx.oncomplete = () => { db.close(); resolve({ transfers: count.result, pulled: pulled.result !== undefined }); };
    tx.onerror = () => { db.close(); resolve({ transfers: 0, pulled: false }); };
  };
})`;

const storedUser = (m: Member) =>
  JSON.stringify({ id: m.id, token: m.token, username: m.username, vip: 'vip1', balance: '0' });

/** Logs `member` in on this context's origin (the stored user, as login leaves it) and waits for the replica. */
async function logIn(context: BrowserContext, origin: string, member: Member): Promise<void> {
  const page = await context.newPage();
  try {
    await page.goto(`${origin}/favicon.svg`);
    await page.evaluate(`localStorage.setItem('strata.user', ${JSON.stringify(storedUser(member))})`);
    // The member's screens in the guests' language (PHONE_CONTEXT): the default context Chromium opens has no
    // locale of its own, so without this they were English and fetched no on-demand locale chunk at all.
    await page.evaluate(`localStorage.setItem('strata.lang', 'zh-CN')`);
    await page.goto(`${origin}/order/transferRecord`);
    // The whole pull: every transfer on the device, and the pull complete.
    await until(
      page,
      `${REPLICA_STATE(member.id)}.then((r) => r.pulled && r.transfers >= ${RECORDS})`,
      180_000,
    );
  } finally {
    await page.close();
  }
}

async function seedDemo(context: BrowserContext, origin: string): Promise<Member> {
  const page = await context.newPage();
  try {
    await page.goto(`${origin}/home`);
    // The quotes come from the engine: once a row is there, this tab's worker leads it.
    await page.locator('.quote-row a, a.quote-row').first().waitFor({ timeout: 120_000 });
    return (await page.evaluate(DEMO_SEED(RECORDS, PUSH))) as Member;
  } finally {
    await page.close();
  }
}

async function seedLive(live: LiveServer): Promise<Member> {
  const stamp = Date.now().toString(36);
  const username = `fds${stamp}`;
  await fundedMember(live, username, String(RECORDS + 100));
  const recipient = `fdr${stamp}`;
  const to = await fundedMember(live, recipient, '2100');
  const server = live.server();
  const vip = await server.call('/api/Viplist/Buyvip', { level: 3, key: 'key1' }, to);
  if (vip.code !== 0) throw new Error(`VIP3: ${vip.code} ${vip.msg}`);
  const sender = await login(server, username);
  let refused = 0;
  for (let i = 0; i < RECORDS; i += PUSH) {
    const mutations = Array.from({ length: Math.min(PUSH, RECORDS - i) }, (_, j) => ({
      id: `fd${stamp}${i + j}`,
      name: '/api/transfer/submit',
      args: { account: recipient, amount: '1' },
    }));
    const r = await server.call('/api/sync/push', { clientId: 'first-data-bench', mutations }, sender);
    if (r.code !== 0) throw new Error(`push: ${r.code} ${r.msg}`);
    refused += r.data.results.filter((x) => x.code !== 0).length;
  }
  if (refused) throw new Error(`${refused} transfers refused`);
  return { id: sender.id, token: sender.token, username };
}

/** Lighthouse's FCP and LCP for each route, and whether its LCP element is the data element. */
async function lighthouseFigures(port: number, origin: string, mode: Mode): Promise<void> {
  if (LIGHTHOUSE_RUNS <= 0) return;
  // Member routes first (their storage kept, cleared as for a cold visit); the guest's /home last, since
  // Lighthouse resets the origin's storage for it, the member included.
  const order = [
    ...ROUTES.filter((r) => ROUTE_DATA[r]?.member),
    ...ROUTES.filter((r) => !ROUTE_DATA[r]?.member),
  ];
  for (const route of order) {
    const member = ROUTE_DATA[route]?.member ?? false;
    const fcp: number[] = [];
    const lcp: number[] = [];
    const elements = new Set<string>();
    for (let i = 0; i < LIGHTHOUSE_RUNS; i += 1) {
      if (member) {
        const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
        const context = browser.contexts()[0];
        if (!context) throw new Error('Chromium has no default context');
        await clearForCold(context, origin, mode);
        await browser.close();
      }
      const report = await lighthouseOn(port, `${origin}${route}`, member);
      fcp.push(report.audits['first-contentful-paint']?.numericValue ?? Number.NaN);
      lcp.push(report.audits['largest-contentful-paint']?.numericValue ?? Number.NaN);
      const element = lcpElement(report);
      if (element) elements.add(`${element.selector} "${element.label.slice(0, 40)}"`);
    }
    const timing = ROUTE_DATA[route]?.timing ?? '';
    const onData = [...elements].some(
      (e) => e.includes(`[elementtiming="${timing}"]`) || /\bamount\b/.test(e),
    );
    console.log(
      `  lighthouse ${mode} ${route.padEnd(22)} FCP ${seconds(median(fcp))}, LCP ${seconds(median(lcp))} ` +
        `(${LIGHTHOUSE_RUNS} run${LIGHTHOUSE_RUNS === 1 ? '' : 's'}); LCP element ${[...elements].join(' / ') || '-'}: ` +
        (onData ? 'the data element' : 'not the data element'),
    );
  }
}

const PHONE_CONTEXT = {
  viewport: { width: 375, height: 812 },
  deviceScaleFactor: 2,
  isMobile: true,
  locale: 'zh-CN',
};

async function measureMode(
  mode: Mode,
  origin: string,
  /** The build it serves (for the scripts' sizes). */
  dir: string,
  member: (context: BrowserContext) => Promise<Member>,
): Promise<void> {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: FLAGS });
  let browser: Browser | undefined;
  try {
    browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
    const memberContext = browser.contexts()[0];
    if (!memberContext) throw new Error('Chromium has no default context');
    const memberRoutes = ROUTES.filter((r) => ROUTE_DATA[r]?.member);
    if (memberRoutes.length) {
      const started = performance.now();
      const m = await member(memberContext);
      await logIn(memberContext, origin, m);
      console.log(
        `  ${mode}: member ${m.username} with ${RECORDS} transfers in the replica (${seconds(performance.now() - started)} to seed)`,
      );
    }
    for (const visitKind of VISITS) {
      let guestWarm: BrowserContext | undefined;
      if (visitKind === 'warm' && memberRoutes.length)
        await installServiceWorker(memberContext, `${origin}${memberRoutes[0]}`);
      for (const route of ROUTES) {
        const data = ROUTE_DATA[route];
        if (!data) throw new Error(`FIRST_DATA_ROUTES: no first data known for ${route}`);
        const samples: Sample[] = [];
        for (let run = 0; run < RUNS; run += 1) {
          if (data.member) {
            if (visitKind === 'cold') await clearForCold(memberContext, origin, mode);
            samples.push(await visit(memberContext, `${origin}${route}`, data.timing));
          } else if (visitKind === 'cold') {
            const fresh = await browser.newContext(PHONE_CONTEXT);
            samples.push(await visit(fresh, `${origin}${route}`, data.timing));
            await fresh.close();
          } else {
            if (!guestWarm) {
              guestWarm = await browser.newContext(PHONE_CONTEXT);
              await installServiceWorker(guestWarm, `${origin}${route}`);
            }
            samples.push(await visit(guestWarm, `${origin}${route}`, data.timing));
          }
        }
        console.log(`  ${mode} ${visitKind} ${route.padEnd(22)} ${summary(samples)}`);
        // What the page fetched before its first data (the first run's list; a warm visit fetches the same
        // files from the service worker).
        const first = samples.find((x) => x.data !== null);
        if (visitKind === 'cold' && first) {
          console.log(`    JS fetched by the page before the first data: ${scriptsSize(dir, first.scripts)}`);
          console.log(`    ${floor(samples)}`);
          if (process.env.FIRST_DATA_VERBOSE) {
            console.log(`    ${[...new Set(first.scripts)].join(' ')}`);
            if (first.calls.length) console.log(`    API calls before it: ${first.calls.join('; ')}`);
          }
        }
      }
      await guestWarm?.close();
    }
    await browser.close();
    browser = undefined;
    await lighthouseFigures(chrome.port, origin, mode);
  } finally {
    await browser?.close();
    chrome.kill();
  }
}

export async function run(): Promise<void> {
  console.log(
    `load average ${loadavg()[0]?.toFixed(1)} on ${cpus().length} cores at the start; ` +
      `${RUNS} runs per figure (median, min-max); throttling: CPU ${CPU_SLOWDOWN}x, ${THROTTLING.latency} ms, ` +
      `1.6 Mbps down, 750 kbps up`,
  );
  for (const mode of MODES) {
    if (mode === 'demo') {
      const { server, origin } = await startServer();
      try {
        await measureMode('demo', origin, 'dist', (context) => seedDemo(context, origin));
      } finally {
        await server.close();
      }
    } else if (mode === 'live') {
      buildLiveApp();
      const live = await startLiveServer();
      try {
        await measureMode('live', live.url, LIVE_DIST, () => seedLive(live));
      } finally {
        await live.close();
      }
    } else throw new Error(`FIRST_DATA_MODES: unknown mode ${String(mode)}`);
    console.log(`load average ${loadavg()[0]?.toFixed(1)} after ${mode} mode`);
  }
}
