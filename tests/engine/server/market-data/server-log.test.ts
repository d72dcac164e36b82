/**
 * The live server's log when a venue is unreachable (issue 28 "Done when"): a warn line naming the venue and
 * its error, while members' quotes are made of the venues that answer (and name only them); an info line when
 * the venue answers again. Venues replayed from fixtures, no network.
 */
import { Writable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { manualClock, type Quote } from '../../../../engine/index';
import { startServer } from '../../../../server/app';
import { configFromEnv } from '../../../../server/config';
import { T0, TEST_XPUB } from '../serve';
import { loadFixture, replayVenue } from './replay';

interface Line {
  level: number;
  msg: string;
  [field: string]: unknown;
}

describe('the live server log', () => {
  it('warns when a venue is unreachable, and says when it is back', async () => {
    const lines: Line[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const text of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(text) as Line);
        done();
      },
    });
    const venues = Object.fromEntries(
      ['binance', 'okx', 'coinbase'].map((v) => [v, replayVenue(loadFixture(v))]),
    );
    venues['binance']!.down = true;
    const clock = manualClock(T0);
    const server = await startServer({
      config: {
        ...configFromEnv({
          DEMO: 'false',
          WALLET_XPUB: TEST_XPUB,
          MARKET_VENUES: 'binance,okx,coinbase',
          MARKET_PAIRS: 'BTC/USDT',
          MARKET_POLL_MS: '100',
          MARKET_BACKFILL: '0',
        }),
        port: 0,
        // Files run side by side: the default metrics port (9464) would be taken by whichever started first.
        metricsPort: null,
        settleEveryMs: 0,
        pbkdf2Iterations: 1_000,
      },
      clock,
      storage: 'memory',
      logger: { level: 'info', stream },
      marketExchange: async (venue) => venues[venue]!.exchange,
    });
    try {
      await vi.waitFor(
        () =>
          expect(lines.find((l) => l.level === 40 && l.msg.startsWith('venue unreachable'))).toMatchObject({
            venue: 'binance',
            err: expect.stringContaining('ECONNRESET'),
          }),
        { timeout: 10_000 },
      );
      // Members' quotes come from the two venues that answer, and say so.
      await vi.waitFor(
        async () => {
          const list = (
            (await (await fetch(`${server.url}/api/market/list`, { method: 'POST' })).json()) as {
              data: { list: Quote[] };
            }
          ).data.list;
          expect(list[0]).toMatchObject({ source: 'okx,coinbase', latest: '91234.35' });
        },
        { timeout: 10_000, interval: 100 },
      );
      venues['binance']!.down = false;
      await vi.waitFor(
        () =>
          expect(lines.find((l) => l.msg === 'venue reachable again')).toMatchObject({
            level: 30,
            venue: 'binance',
          }),
        { timeout: 40_000, interval: 100 },
      );
    } finally {
      await server.close();
    }
  }, 60_000);
});
