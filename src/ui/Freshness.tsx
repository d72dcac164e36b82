/**
 * The time a piece of data on screen dates from: "3 min. ago" within the hour (CLDR's short relative
 * wording in the member's language), "Updated 12:04" later the same day, with the date on other days.
 */
import { useEffect, useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../lib/format';
import { useOnlineStatus } from '../pwa/online';
import { useSyncStatus } from '../sync/status';

const MINUTE = 60_000;

/**
 * The short time phrase for `at` (ms) seen at `now`: "this minute", "3 min. ago" (the wording is CLDR's short
 * relative time, kept as locale strings with their plural forms in every locale's core part). Not Intl.RelativeTimeFormat: its first
 * construction in a page loads the browser's relative-time data, ~40 ms of main thread on this machine
 * (~160 ms on a slow phone), inside the sync chip's first render.
 */
export function agoText(at: number, now: number, t: TFunction): string | null {
  const elapsed = now - at;
  if (elapsed < 0 || elapsed >= 60 * MINUTE) return null;
  const minutes = Math.floor(elapsed / MINUTE);
  return minutes === 0 ? t('offline.thisMinute') : t('offline.minutesAgo', { count: minutes });
}

export function freshnessTime(at: number, now: number, t: TFunction): string {
  const ago = agoText(at, now, t);
  if (ago) return ago;
  const sameDay = new Date(at).toDateString() === new Date(now).toDateString();
  return formatTime(at, sameDay ? 'HH:mm' : 'YYYY-MM-DD HH:mm');
}

/** Re-renders once a minute, so "3 min ago" keeps counting. */
export function useMinuteClock(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), MINUTE / 2);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/** "Updated 3 min ago" / "Updated 12:04", or nothing when `at` is unknown. */
export function Freshness({ at, className = 'freshness muted' }: { at: number | null; className?: string }) {
  const { t } = useTranslation();
  const now = useMinuteClock();
  if (at === null) return null;
  return (
    <p className={className} data-testid="freshness">
      <time dateTime={new Date(at).toISOString()}>
        {t('offline.updated', { time: freshnessTime(at, Math.max(now, at), t) })}
      </time>
    </p>
  );
}

/**
 * The time of what a screen shows, only when it may be out of date: offline, or the last sync failed. The
 * shell's one banner says why; this line says from when.
 */
export function StaleNote({ at }: { at: number | null }) {
  const online = useOnlineStatus();
  const sync = useSyncStatus();
  const stale = !online || sync.state === 'offline' || sync.state === 'error';
  return stale ? <Freshness at={at} /> : null;
}

/** The time of a cached answer on screen, only when it may be out of date (offline, or its refresh failed). */
export function CachedNote({ at, stale }: { at: number | null; stale: boolean }) {
  const online = useOnlineStatus();
  return !online || stale ? <Freshness at={at} /> : null;
}
