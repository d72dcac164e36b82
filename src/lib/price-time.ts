/**
 * When the prices on screen last arrived on this device (ms): every live update of the quotes (the feed), or
 * the time the device's copy was fetched. Offline, the market screens mark their prices stale with this time
 * ("Prices as of 12:04").
 */
let last: number | null = null;

export function notePriceTime(at: number): void {
  if (last === null || at > last) last = at;
}

export function lastPriceTime(): number | null {
  return last;
}
