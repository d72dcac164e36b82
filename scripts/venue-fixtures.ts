/**
 * The venue fixtures' format (tests/engine/server/market-data/fixtures/<venue>.json): what a venue answered,
 * as ccxt received it, so tests replay it through the venue's own ccxt class with no network
 * (tests/engine/server/market-data/replay.ts). scripts/record-venue-fixtures.ts writes it.
 */
export interface VenueFixture {
  /** The ccxt exchange id. */
  venue: string;
  /** Where the bodies come from: a recording's date and machine, or how they were written. */
  source: string;
  /** ccxt's unified markets for the recorded pairs (spot, and the USDT perpetual where listed). */
  markets: object[];
  /** Response body (parsed JSON) per request key. */
  responses: Record<string, unknown>;
}

/** Paging and time-window parameters: they change between recording and replay, so keys leave them out. */
const VOLATILE = new Set(['limit', 'sz', 'count', 'start', 'end', 'since', 'startTime', 'endTime']);

/** "GET https://host/path?a=1&b=2": the method, the URL without volatile parameters, the rest sorted. */
export function requestKey(method: string, url: string): string {
  const u = new URL(url);
  const params = [...u.searchParams.entries()]
    .filter(([name]) => !VOLATILE.has(name))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const query = params.map(([name, value]) => `${name}=${value}`).join('&');
  return `${method.toUpperCase()} ${u.origin}${u.pathname}${query ? `?${query}` : ''}`;
}
