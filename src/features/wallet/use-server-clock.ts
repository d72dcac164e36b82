/**
 * The server's time for countdowns. In demo mode the engine's clock runs ahead of the wall clock by however
 * far the demo tools fast-forwarded it, so a VIP1 trial must be counted on that clock, not Date.now.
 */
import { useCallback, useRef } from 'react';
import { demoControls } from '../../api';

export function useServerClock(): { now: () => number; sync: () => Promise<void> } {
  const offset = useRef(0);
  const now = useCallback(() => Date.now() + offset.current, []);
  const sync = useCallback(async () => {
    const demo = demoControls();
    if (!demo) return;
    try {
      const before = Date.now();
      const server = await demo.now();
      offset.current = server - Math.round((before + Date.now()) / 2);
    } catch {
      // Keep the last offset: a countdown a little off beats none.
    }
  }, []);
  return { now, sync };
}

/** 5 d 04:03:02 as parts, for a translated countdown. */
export function countdownParts(ms: number): { days: number; time: string } {
  const total = Math.max(0, Math.floor(ms / 1000));
  const days = Math.floor(total / 86_400);
  const pad = (n: number) => String(n).padStart(2, '0');
  const h = Math.floor((total % 86_400) / 3600);
  const m = Math.floor((total % 3600) / 60);
  return { days, time: `${pad(h)}:${pad(m)}:${pad(total % 60)}` };
}
