/**
 * The time a piece of data on screen dates from: "3 min ago" within the hour (the browser's own relative
 * wording in the member's language), "Updated 12:04" later the same day, with the date on other days.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../lib/format';
import { useOnlineStatus } from '../pwa/online';
import { useSyncStatus } from '../sync/status';

const MINUTE = 60_000;

/** The short time phrase for `at` (ms) seen at `now`, in `language`. */
export function agoText(at: number, now: number, language: string): string | null {
  const elapsed = now - at;
  if (elapsed < 0 || elapsed >= 60 * MINUTE) return null;
  const minutes = Math.floor(elapsed / MINUTE);
  try {
    return new Intl.RelativeTimeFormat(language, { numeric: 'auto', style: 'short' }).format(
      -minutes,
      'minute',
    );
  } catch {
    return null;
  }
}

export function freshnessTime(at: number, now: number, language: string): string {
  const ago = agoText(at, now, language);
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
  const { t, i18n } = useTranslation();
  const now = useMinuteClock();
  if (at === null) return null;
  return (
    <p className={className} data-testid="freshness">
      <time dateTime={new Date(at).toISOString()}>
        {t('offline.updated', { time: freshnessTime(at, Math.max(now, at), i18n.language) })}
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
