/**
 * Geometry of the depth chart (issue 13): cumulative quantity against price, bids stepping down to the
 * left of the mid and asks up to the right, scaled into an SVG box. Plotting only: numbers, not money.
 */
export interface DepthCurves {
  /** SVG polygon points ("x,y x,y ...") of the bid and ask areas. */
  bids: string;
  asks: string;
  totalBids: number;
  totalAsks: number;
}

type Level = readonly [string, string];

export function depthCurves(
  bids: readonly Level[],
  asks: readonly Level[],
  width: number,
  height: number,
): DepthCurves | null {
  if (bids.length === 0 || asks.length === 0) return null;
  const lo = Number(bids[bids.length - 1]![0]);
  const hi = Number(asks[asks.length - 1]![0]);
  if (!(hi > lo)) return null;
  const cumulative = (levels: readonly Level[]) => {
    let sum = 0;
    return levels.map(([p, q]) => {
      sum += Number(q);
      return { price: Number(p), total: sum };
    });
  };
  const b = cumulative(bids);
  const a = cumulative(asks);
  const top = Math.max(b.at(-1)!.total, a.at(-1)!.total);
  const x = (price: number) => (((price - lo) / (hi - lo)) * width).toFixed(1);
  const y = (total: number) => (height - (total / top) * height).toFixed(1);
  // Steps: each level holds its cumulative total until the next price.
  const steps = (points: { price: number; total: number }[]) => {
    const out: string[] = [];
    let previous = 0;
    for (const point of points) {
      out.push(`${x(point.price)},${y(previous)}`, `${x(point.price)},${y(point.total)}`);
      previous = point.total;
    }
    return out;
  };
  const bidSteps = steps(b);
  const askSteps = steps(a);
  return {
    bids: [
      `${x(b[0]!.price)},${height}`,
      ...bidSteps,
      `${x(lo)},${y(b.at(-1)!.total)}`,
      `${x(lo)},${height}`,
    ].join(' '),
    asks: [
      `${x(a[0]!.price)},${height}`,
      ...askSteps,
      `${x(hi)},${y(a.at(-1)!.total)}`,
      `${x(hi)},${height}`,
    ].join(' '),
    totalBids: b.at(-1)!.total,
    totalAsks: a.at(-1)!.total,
  };
}
