/**
 * Chart indicators (issue 13): simple moving averages of the close, for the K-line's MA lines. Numbers, not
 * money: they are only plotted.
 */
export interface Point {
  time: number;
  value: number;
}

/** The periods drawn on the K-line, with their colours. */
export const MOVING_AVERAGES = [
  { period: 7, color: '#d97706' },
  { period: 25, color: '#7c3aed' },
] as const;

/** Simple moving average of `period` closes; the first period - 1 candles have none. */
export function movingAverage(closes: readonly Point[], period: number): Point[] {
  const out: Point[] = [];
  let sum = 0;
  for (let i = 0; i < closes.length; i++) {
    sum += closes[i]!.value;
    if (i >= period) sum -= closes[i - period]!.value;
    if (i >= period - 1) out.push({ time: closes[i]!.time, value: sum / period });
  }
  return out;
}
