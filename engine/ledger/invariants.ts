/**
 * Whole-ledger checks for tests and diagnostics: rebuild every balance from the journal and compare it with
 * the cache, and check the numbered rules L1-L6 of docs/RULES.md. Reads straight from the adapter.
 */
import type { StoreAdapter } from '../store/port';
import { isFrozenAccount, mustStayNonNegative } from './accounts';
import { balanceId, type BalanceRow, type HoldRow, type JournalEntry } from './tables';

/** Sum of every journal leg per (account, asset), as micro-units. */
export async function rebuildBalances(store: StoreAdapter): Promise<Map<string, bigint>> {
  const entries = (await store.scan('journal')) as JournalEntry[];
  const sums = new Map<string, bigint>();
  for (const entry of entries) {
    for (const leg of entry.legs) {
      const id = balanceId(leg.account, leg.asset);
      sums.set(id, (sums.get(id) ?? 0n) + BigInt(leg.amount));
    }
  }
  return sums;
}

export async function checkInvariants(store: StoreAdapter): Promise<string[]> {
  const problems: string[] = [];
  const entries = (await store.scan('journal')) as JournalEntry[];
  const cached = (await store.scan('balances')) as BalanceRow[];
  const holdRows = (await store.scan('holds')) as HoldRow[];

  for (const entry of entries) {
    const perAsset = new Map<string, bigint>();
    for (const leg of entry.legs)
      perAsset.set(leg.asset, (perAsset.get(leg.asset) ?? 0n) + BigInt(leg.amount));
    for (const [asset, sum] of perAsset) {
      if (sum !== 0n) problems.push(`L1 entry ${entry.id} (${entry.kind}) ${asset} sums to ${sum}`);
    }
  }

  const rebuilt = await rebuildBalances(store);
  const cachedMap = new Map(cached.map((b) => [b.id, BigInt(b.amount)]));
  for (const id of new Set([...rebuilt.keys(), ...cachedMap.keys()])) {
    const a = rebuilt.get(id) ?? 0n;
    const b = cachedMap.get(id) ?? 0n;
    if (a !== b) problems.push(`L2 ${id}: cached ${b} but journal gives ${a}`);
  }

  const totals = new Map<string, bigint>();
  for (const row of cached) totals.set(row.asset, (totals.get(row.asset) ?? 0n) + BigInt(row.amount));
  for (const [asset, total] of totals) {
    if (total !== 0n) problems.push(`L3 ${asset} is not conserved: all accounts sum to ${total}`);
  }

  for (const row of cached) {
    if (mustStayNonNegative(row.account) && BigInt(row.amount) < 0n) {
      problems.push(`L4 ${row.account} is negative in ${row.asset}: ${row.amount}`);
    }
  }

  const openPerFrozen = new Map<string, bigint>();
  for (const hold of holdRows) {
    if (hold.status === 'held') {
      const id = balanceId(hold.frozenAccount, hold.asset);
      openPerFrozen.set(id, (openPerFrozen.get(id) ?? 0n) + BigInt(hold.amount));
    }
  }
  for (const row of cached) {
    if (!isFrozenAccount(row.account)) continue;
    const open = openPerFrozen.get(row.id) ?? 0n;
    if (open !== BigInt(row.amount))
      problems.push(`L5 ${row.id}: frozen ${row.amount} but open holds ${open}`);
  }

  const closings = new Map<string, number>();
  for (const entry of entries) {
    if (entry.kind.startsWith('release:') || entry.kind.startsWith('capture:')) {
      closings.set(entry.ref, (closings.get(entry.ref) ?? 0) + 1);
    }
  }
  for (const hold of holdRows) {
    const n = closings.get(`hold:${hold.id}`) ?? 0;
    const expected = hold.status === 'held' ? 0 : 1;
    if (n !== expected) problems.push(`L6 hold ${hold.id} (${hold.status}) closed ${n} times`);
  }
  return problems;
}
