import { describe, expect, it } from 'vitest';
import type { Candle } from '../../../engine/index';
import { mergeCandles } from './use-kline-chart';

const candle = (time: number, close = '1'): Candle => ({
  time,
  open: '1',
  high: '1',
  low: '1',
  close,
  volume: '0',
});

describe('paging back through K-line history', () => {
  it('M4: an older page goes in front, oldest first, and never duplicates a candle already shown', () => {
    const shown = [candle(300), candle(360, '2')];
    const older = [candle(180), candle(240), candle(300, 'stale')];
    expect(mergeCandles(older, shown).map((c) => [c.time, c.close])).toEqual([
      [180, '1'],
      [240, '1'],
      [300, '1'],
      [360, '2'],
    ]);
    expect(mergeCandles([], shown)).toEqual(shown);
  });
});
