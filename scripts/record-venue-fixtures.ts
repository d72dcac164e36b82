/**
 * Records the venue fixtures the market-data tests replay (tests/engine/server/market-data/fixtures/): per
 * venue, through ccxt, the pair's ticker, 50-level book, five one-minute candles and its USDT perpetual's
 * ticker, each HTTP body exactly as ccxt received it. Needs the network; by hand, never in CI:
 * `npx tsx scripts/record-venue-fixtures.ts binance okx coinbase [--pair BTC/USDT]`. It overwrites the
 * fixture of each venue it reaches; one it cannot reach keeps its fixture.
 */
import { writeFileSync } from 'node:fs';
import ccxt, { type Exchange } from 'ccxt';
import { requestKey, type VenueFixture } from './venue-fixtures';

type Fetch = (url: string, method?: string, headers?: object, body?: string) => Promise<unknown>;

async function record(venue: string, pair: string): Promise<VenueFixture> {
  const Ctor = (ccxt as unknown as Record<string, new (config: object) => Exchange>)[venue];
  if (!Ctor) throw new Error(`ccxt has no exchange "${venue}"`);
  const exchange = new Ctor({ enableRateLimit: true, timeout: 15_000 });
  const markets = await exchange.loadMarkets();
  const responses: Record<string, unknown> = {};
  const inner = (exchange as unknown as { fetch: Fetch }).fetch.bind(exchange);
  (exchange as unknown as { fetch: Fetch }).fetch = async (url, method = 'GET', headers, body) => {
    const answer = await inner(url, method, headers, body);
    responses[requestKey(method, url)] = answer;
    return answer;
  };
  const base = pair.split('/')[0] ?? '';
  const perp = `${base}/USDT:USDT`;
  const symbols = [pair, ...(markets[perp] ? [perp] : [])];
  await exchange.fetchTicker(pair);
  await exchange.fetchOrderBook(pair, 50);
  await exchange.fetchOHLCV(pair, '1m', undefined, 5);
  if (symbols.includes(perp)) await exchange.fetchTicker(perp);
  return {
    venue,
    source: `recorded ${new Date().toISOString()} by scripts/record-venue-fixtures.ts (ccxt ${ccxt.version})`,
    markets: symbols.map((s) => markets[s] as object),
    responses,
  };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const venues: string[] = [];
  let pair = 'BTC/USDT';
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--pair') pair = args[++i] ?? pair;
    else venues.push(args[i] ?? '');
  }
  if (venues.length === 0) {
    console.error('usage: npx tsx scripts/record-venue-fixtures.ts <venue>... [--pair BTC/USDT]');
    process.exit(2);
  }
  let failed = 0;
  for (const venue of venues) {
    try {
      const fixture = await record(venue, pair);
      const path = `tests/engine/server/market-data/fixtures/${venue}.json`;
      writeFileSync(path, `${JSON.stringify(fixture, null, 2)}\n`);
      console.log(`${venue}: ${Object.keys(fixture.responses).length} responses -> ${path}`);
    } catch (error) {
      failed += 1;
      console.error(`${venue}: not recorded (${error instanceof Error ? error.message : String(error)})`);
    }
  }
  process.exit(failed > 0 ? 1 : 0);
}

void main();
