/**
 * Wires the chart to the data: shows the device's last copy of (symbol, interval) at once (src/sync/cache.ts:
 * up to 1,000 candles per series, the least recently used of 20 series evicted), loads the latest candles
 * and keeps them on the device, pages back with `before`
 * when the member scrolls to the oldest loaded candle, and moves the last candle with the feed's Kline
 * messages. The chart module is imported here, dynamically, so it stays in its own chunk.
 */
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import type { Candle, FeedMessage, Interval } from '../../../engine/index';
import { api } from '../../api';
import { toFailure, type Failure } from '../../machines/failure';
import { appSync } from '../../sync/app';
import { publicCacheKey, putCache, readCache, touchCache } from '../../sync/cache';
import { figureDecimals } from '../../lib/format';
import { useFeed } from '../../lib/feed';
import type { KlineChart } from './chart';

export const PAGE_SIZE = 300;

export interface KlineState {
  status: 'loading' | 'error' | 'ready';
  error: Failure | null;
  last: Candle | null;
  /** Every candle back to the start of history is loaded. */
  complete: boolean;
  /** When the candles shown were fetched (ms), null before any. */
  at: number | null;
  /** The last fetch failed: the candles shown are the device's copy. */
  stale: boolean;
  reload: () => void;
}

export function mergeCandles(older: readonly Candle[], newer: readonly Candle[]): Candle[] {
  const first = newer[0]?.time ?? Number.POSITIVE_INFINITY;
  return [...older.filter((c) => c.time < first), ...newer];
}

/** The pair's tick decides the axis' places (issue 26), as everywhere a price is shown. */
const placesOf = (symbol: string, list: readonly Candle[]) =>
  figureDecimals(list.at(-1)?.close ?? '0', { kind: 'price', symbol }) ?? 2;

export function useKlineChart(
  container: RefObject<HTMLDivElement | null>,
  symbol: string,
  interval: Interval,
  dark: boolean,
  locale: string,
): KlineState {
  const chart = useRef<KlineChart | null>(null);
  const candles = useRef<Candle[]>([]);
  const paging = useRef(false);
  const complete = useRef(false);
  const key = useRef('');
  const [chartReady, setChartReady] = useState(false);
  const [state, setState] = useState<Omit<KlineState, 'reload'>>({
    status: 'loading',
    error: null,
    last: null,
    complete: false,
    at: null,
    stale: false,
  });
  const [nonce, setNonce] = useState(0);

  const loadOlder = useCallback(async () => {
    const oldest = candles.current[0];
    if (paging.current || complete.current || !oldest || !chart.current) return;
    paging.current = true;
    const mine = key.current;
    try {
      const page = await api.call(
        '/api/market/kline',
        { symbol, interval, limit: PAGE_SIZE, before: oldest.time },
        { silent: true },
      );
      if (mine !== key.current) return;
      if (page.length < PAGE_SIZE) complete.current = true;
      candles.current = mergeCandles(page, candles.current);
      chart.current.setCandles(candles.current, placesOf(symbol, candles.current));
      setState((s) => ({ ...s, complete: complete.current }));
    } catch {
      // Scrolling back again retries.
    } finally {
      paging.current = false;
    }
  }, [symbol, interval]);
  const loadOlderRef = useRef(loadOlder);
  loadOlderRef.current = loadOlder;

  useEffect(() => {
    let live = true;
    void import('./chart').then(({ createKlineChart }) => {
      if (!live || !container.current) return;
      chart.current = createKlineChart(container.current, {
        theme: { dark },
        locale,
        onNeedOlder: () => void loadOlderRef.current(),
      });
      setChartReady(true);
    });
    return () => {
      live = false;
      chart.current?.destroy();
      chart.current = null;
    };
    // The theme is applied by its own effect; the chart is made once.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [container]);

  useEffect(() => chart.current?.setTheme({ dark }), [dark, chartReady]);
  useEffect(() => chart.current?.setLocale(locale), [locale, chartReady]);

  useEffect(() => {
    if (!chartReady) return;
    const mine = `${symbol}|${interval}|${nonce}`;
    key.current = mine;
    complete.current = false;
    setState({ status: 'loading', error: null, last: null, complete: false, at: null, stale: false });
    const db = appSync().db;
    const cacheKey = publicCacheKey(`kline:${symbol}:${interval}`);
    let shownCopy = false;
    const show = (list: Candle[], at: number, stale: boolean) => {
      if (key.current !== mine || !chart.current) return;
      candles.current = list;
      complete.current = list.length < PAGE_SIZE;
      chart.current.setCandles(list, placesOf(symbol, list));
      setState({
        status: 'ready',
        error: null,
        last: list.at(-1) ?? null,
        complete: complete.current,
        at,
        stale,
      });
    };
    // The device's copy first (offline it is all there is), unless the fresh answer came first.
    const copy = readCache(db, cacheKey).then((row) => {
      if (!row || !Array.isArray(row.value) || key.current !== mine || candles.current.length > 0) return;
      shownCopy = true;
      show(row.value as Candle[], row.at, false);
      void touchCache(db, cacheKey).catch(() => undefined);
    });
    candles.current = [];
    api.call('/api/market/kline', { symbol, interval, limit: PAGE_SIZE }, { silent: true }).then(
      (list) => {
        const at = Date.now();
        show(list, at, false);
        void putCache(db, cacheKey, 'kline', list, at).catch(() => undefined);
      },
      async (error: unknown) => {
        await copy.catch(() => undefined);
        if (key.current !== mine) return;
        if (shownCopy) setState((s) => ({ ...s, stale: true }));
        else setState((s) => ({ ...s, status: 'error', error: toFailure(error) }));
      },
    );
  }, [symbol, interval, nonce, chartReady]);

  useFeed((message: FeedMessage) => {
    if (message.type !== 'Kline' || state.status !== 'ready') return;
    const update = message.data;
    if (update?.symbol !== symbol || update.interval !== interval) return;
    for (const candle of update.list) {
      const last = candles.current.at(-1);
      if (last && candle.time < last.time) continue;
      if (last && candle.time === last.time) candles.current[candles.current.length - 1] = candle;
      else candles.current.push(candle);
      chart.current?.update(candle);
      setState((s) => ({ ...s, last: candle }));
    }
  });

  return { ...state, reload: useCallback(() => setNonce((n) => n + 1), []) };
}
