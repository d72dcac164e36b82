/** How far the simulated clock runs ahead of real time, in whole days and hours (for the panel). */
export function aheadParts(offsetMs: number): { days: number; hours: number } {
  const safe = Math.max(0, offsetMs);
  const days = Math.floor(safe / 86_400_000);
  const hours = Math.floor((safe % 86_400_000) / 3_600_000);
  return { days, hours };
}
