/**
 * The records lists' filters (docs/SPEC.md §12): a date range (the device's local days, both ends included)
 * and a status, applied on the device to the replica's rows.
 */
export interface RecordFilter {
  /** YYYY-MM-DD (an <input type="date"> value), or '' for no bound. */
  from: string;
  to: string;
  /** A record status, or 'all'. */
  status: string;
}

export const NO_FILTER: RecordFilter = { from: '', to: '', status: 'all' };

/** Local midnight of a YYYY-MM-DD day (ms), or null for '' or a malformed day. */
export function dayStart(day: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return null;
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return Number.isNaN(d.getTime()) ? null : d.getTime();
}

/** The [from, to) range in ms of a filter's days (the `to` day included whole). */
export function rangeOf(filter: Pick<RecordFilter, 'from' | 'to'>): { since: number; until: number } {
  const since = dayStart(filter.from) ?? -Infinity;
  const last = dayStart(filter.to);
  const until = last === null ? Infinity : new Date(last).setDate(new Date(last).getDate() + 1);
  return { since, until };
}

export function filterRecords<T extends { createdAt: number }>(
  records: readonly T[],
  filter: RecordFilter,
  statusOf: (record: T) => string = () => 'all',
): T[] {
  const { since, until } = rangeOf(filter);
  return records.filter((r) => {
    const ms = r.createdAt * 1000;
    if (ms < since || ms >= until) return false;
    return filter.status === 'all' || statusOf(r) === filter.status;
  });
}

export function isFiltered(filter: RecordFilter): boolean {
  return filter.from !== '' || filter.to !== '' || filter.status !== 'all';
}
