/**
 * Live mode's first data (docs/PWA.md "Live mode: first data in the HTML"): the market list the server inlined
 * in the page seeds the device cache as the call's own answer would, never over newer prices, and /home's
 * quote rows render from it while no call of the app's has been answered.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import type { Quote } from '../../engine/index';
import { putCache, readCache } from './cache';
import { openDeviceDb, type DeviceDb } from './db';
import { FIRST_DATA_ID, readFirstData, seedFirstData, type FirstData } from './first-data';

// The app's calls never answer: whatever the screen shows came from the page.
vi.mock('../api', () => ({
  api: { call: () => new Promise(() => undefined) },
  onWrite: () => () => undefined,
}));
vi.mock('../lib/feed', () => ({ useFeed: () => undefined }));

const T = 1_800_000_000;
const quote = (symbol: string, latest: string, time: number): Quote => ({
  symbol,
  base: symbol.split('/')[0] ?? symbol,
  latest,
  change24h: '1.25',
  source: 'binance,okx,coinbase',
  high: latest,
  low: latest,
  open: latest,
  prevClose: latest,
  volume: '10',
  time,
});
const list = (latest: string, time: number) => ({
  list: [
    quote('BTC/USDT', latest, time),
    quote('ETH/USDT', '3400', time),
    quote('DOGE/USDT', '0.21', time),
    quote('LTC/USDT', '80', time),
  ],
});
const page = (latest: string, time: number): FirstData => ({
  time,
  answers: { '/api/market/list': list(latest, time) },
});

function inlinePage(json: string): void {
  document.getElementById(FIRST_DATA_ID)?.remove();
  const element = document.createElement('script');
  element.type = 'application/json';
  element.id = FIRST_DATA_ID;
  element.textContent = json;
  document.body.append(element);
}

let db: DeviceDb;
let n = 0;
const fresh = () => (db = openDeviceDb(`first-data-${++n}`));

afterEach(() => {
  cleanup();
  db?.close();
});

describe("the page's first data (live mode)", () => {
  it('is read from the page as the server escaped it; anything malformed is ignored', () => {
    // The server's escaping (server/http/app-page.ts): < > & as \u escapes, parsed back as they were.
    inlinePage(
      `{"time":${T},"answers":{"/api/market/list":{"list":[{"symbol":"\\u003c/script\\u003e\\u0026","latest":"1","time":${T}}]}}}`,
    );
    expect(readFirstData()?.answers['/api/market/list']).toEqual({
      list: [{ symbol: '</script>&', latest: '1', time: T }],
    });
    inlinePage('{"time":"soon","answers":{}}');
    expect(readFirstData()).toBeNull();
    inlinePage('{"time":1,');
    expect(readFirstData()).toBeNull();
    document.getElementById(FIRST_DATA_ID)?.remove();
    expect(readFirstData()).toBeNull();
  });

  it("seeds the device cache as /api/market/list's own answer, with the data's time", async () => {
    fresh();
    expect(await seedFirstData(db, page('96000.5', T))).toEqual(['p:quotes']);
    const row = await readCache(db, 'p:quotes');
    expect(row).toMatchObject({ kind: 'data', at: T * 1000, value: list('96000.5', T) });
  });

  it('never replaces newer prices on the device; replaces older ones; malformed answers write nothing', async () => {
    fresh();
    // The device's copy (written by a fetch or the feed) is a minute newer than the page's data.
    await putCache(db, 'p:quotes', 'data', list('97000', T + 60), (T + 60) * 1000);
    expect(await seedFirstData(db, page('96000.5', T))).toEqual([]);
    expect(await seedFirstData(db, page('96500', T + 60))).toEqual([]);
    expect((await readCache(db, 'p:quotes'))?.value).toEqual(list('97000', T + 60));
    // A page newer than the device's copy: its prices are written.
    expect(await seedFirstData(db, page('98000', T + 120))).toEqual(['p:quotes']);
    expect((await readCache(db, 'p:quotes'))?.value).toEqual(list('98000', T + 120));
    const junk: FirstData = { time: T + 999, answers: { '/api/market/list': { list: [{ symbol: 1 }] } } };
    expect(await seedFirstData(db, junk)).toEqual([]);
    expect((await readCache(db, 'p:quotes'))?.at).toBe((T + 120) * 1000);
  });
});

describe("/home's quote rows from the page, before any call is answered (live mode)", () => {
  beforeAll(() => vi.stubEnv('VITE_API_MODE', 'live'));
  afterAll(() => vi.unstubAllEnvs());

  it('the app opens the device database, seeds it from the page, and the quotes card shows the rows', async () => {
    inlinePage(JSON.stringify(page('96000.5', T)));
    const { QuotesSummary } = await import('../ui/QuotesSummary');
    render(
      <MemoryRouter>
        <QuotesSummary rows={4} />
      </MemoryRouter>,
    );
    const rows = await screen.findByRole('list', { name: 'home.quotesTitle' }, { timeout: 10_000 });
    expect(rows.textContent).toContain('BTC/USDT');
    expect(rows.textContent).toContain('96,000.5');
    const { appDeviceDb } = await import('./device');
    expect((await readCache(appDeviceDb(), 'p:quotes'))?.at).toBe(T * 1000);
  });
});
