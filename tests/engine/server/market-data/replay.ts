/**
 * Venues replayed from fixtures (tests/engine/server/market-data/fixtures/<venue>.json), no network: the
 * venue's real ccxt exchange class (its request building and its parsers) with its HTTP layer answered
 * from the fixture's recorded bodies. A fixture holds the venue's ccxt markets for our pairs and one
 * response body per request (`requestKey`: method, URL without the paging parameters); the format is what
 * scripts/record-venue-fixtures.ts writes. A request with no recorded body fails as a network error
 * would, and `down` makes every request fail that way (a venue that disconnects), until it is cleared.
 */
import { readFileSync } from 'node:fs';
import ccxt, { NetworkError, type Exchange } from 'ccxt';
import { requestKey, type VenueFixture } from '../../../../scripts/venue-fixtures';

export { requestKey };

export function loadFixture(venue: string): VenueFixture {
  const url = new URL(`./fixtures/${venue}.json`, import.meta.url);
  return JSON.parse(readFileSync(url, 'utf8')) as VenueFixture;
}

export interface ReplayVenue {
  readonly venue: string;
  readonly exchange: Exchange;
  /** Every request the exchange made, as request keys, in order. */
  readonly requests: string[];
  /** Requests that had no recorded response. */
  readonly missing: string[];
  /** While true, every request fails with a connection error. */
  down: boolean;
}

type Fetch = (url: string, method?: string) => Promise<unknown>;

export function replayVenue(fixture: VenueFixture): ReplayVenue {
  const Ctor = (ccxt as unknown as Record<string, new (config: object) => Exchange>)[fixture.venue];
  if (!Ctor) throw new Error(`ccxt has no exchange "${fixture.venue}"`);
  const exchange = new Ctor({ enableRateLimit: false });
  exchange.setMarkets(fixture.markets as never);
  const replay: ReplayVenue = { venue: fixture.venue, exchange, requests: [], missing: [], down: false };
  const fetch: Fetch = async (url, method = 'GET') => {
    const key = requestKey(method, url);
    replay.requests.push(key);
    if (replay.down) throw new NetworkError(`${fixture.venue} ${method} ${url} ECONNRESET (replayed outage)`);
    const body = fixture.responses[key];
    if (body === undefined) {
      replay.missing.push(key);
      throw new NetworkError(`${fixture.venue}: no recorded response for ${key}`);
    }
    return structuredClone(body);
  };
  (exchange as unknown as { fetch: Fetch }).fetch = fetch;
  return replay;
}
