/**
 * What the member sees of their writes that the server has not settled on screen: entries still in the
 * outbox ("Waiting for connection") and answers nobody saw yet (a refusal with its catalogue code, kept
 * until dismissed). Screens and records lists merge these rows above the server's records; balances show
 * the pending outgoing amount beside the confirmed one, never subtracted from it.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { formatMicro, parseAmountText } from '../../engine/index';
import { useUser } from '../state/user-store';
import type { DeviceDb } from './db';
import type { QueuedEntry, SettledResult } from './outbox';
import { isApplied } from './writes';
import { appDeviceDb } from './device';

export type PendingState = 'waiting' | 'applied' | 'failed';

export interface PendingWrite {
  id: string;
  name: string;
  /** The mutation's body as stored (withheld fields such as a security key are never here). */
  args: Record<string, unknown>;
  createdAt: number;
  state: PendingState;
  /** The answer's code and message, once answered. */
  code?: number;
  msg?: string;
}

/** Paths whose `amount` leaves the member's available balance when applied. */
export const OUTGOING = ['/api/transfer/submit', '/api/withdraw/submit'] as const;

function argsOf(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

export function fromEntry(entry: QueuedEntry): PendingWrite {
  return {
    id: entry.id,
    name: entry.name,
    args: argsOf(entry.args),
    createdAt: entry.createdAt,
    state: 'waiting',
  };
}

export function fromResult(result: SettledResult): PendingWrite {
  return {
    id: result.id,
    name: result.name,
    args: argsOf(result.args),
    createdAt: result.createdAt ?? result.at,
    state: isApplied(result.code) ? 'applied' : 'failed',
    code: result.code,
    msg: result.msg,
  };
}

/** The member's unsettled writes of these names, newest first: waiting entries and unseen answers. */
export async function pendingWrites(
  db: DeviceDb,
  memberId: string,
  names: readonly string[],
): Promise<PendingWrite[]> {
  const wanted = new Set(names);
  const [entries, results] = await Promise.all([
    db.outbox.where('memberId').equals(memberId).toArray(),
    db.results.where('memberId').equals(memberId).toArray(),
  ]);
  const rows = [
    ...(entries as QueuedEntry[]).filter((e) => wanted.has(e.name)).map(fromEntry),
    ...(results as SettledResult[]).filter((r) => wanted.has(r.name) && !r.seen).map(fromResult),
  ];
  return rows.sort((a, b) => b.createdAt - a.createdAt);
}

/** Exact sum of the waiting rows' amounts, as a decimal string ('0' when none). */
export function waitingOutgoing(rows: readonly PendingWrite[]): string {
  let total = 0n;
  for (const row of rows) {
    if (row.state !== 'waiting' || !(OUTGOING as readonly string[]).includes(row.name)) continue;
    const micro = typeof row.args.amount === 'string' ? parseAmountText(row.args.amount) : null;
    if (micro !== null) total += micro;
  }
  return formatMicro(total);
}

const NONE: PendingWrite[] = [];

/** Live: the signed-in member's unsettled writes of `names` (one path or several). */
export function usePendingMutations(
  names: string | readonly string[],
  db: DeviceDb = appDeviceDb(),
): PendingWrite[] {
  const memberId = useUser()?.id ?? null;
  const key = typeof names === 'string' ? names : names.join(',');
  const rows = useLiveQuery(
    () => (memberId ? pendingWrites(db, memberId, key.split(',')) : NONE),
    [db, memberId, key],
  );
  return rows ?? NONE;
}

/** Live: the sum of waiting outgoing amounts (transfers, withdrawals), '0' when none. */
export function usePendingOutgoing(db: DeviceDb = appDeviceDb()): string {
  return waitingOutgoing(usePendingMutations(OUTGOING, db));
}
