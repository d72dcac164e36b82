/**
 * A member's own lines of a ledger entry, as devices replicate them (the synced `ledgerLines` table): the
 * entry's legs on that member's accounts netted per sub-account and asset (an account's frozen part counts
 * as the sub-account), zero nets left out. Exact decimal strings (money.ts formatAmount), signed: positive
 * into the account.
 */
import { formatAmount } from '../money';
import type { JournalEntry } from './tables';

/**
 * The entry kinds the account statement lists from the ledger (docs/SPEC.md §12): a contract's realised
 * PnL, its liquidation and the remainder cleared to the insurance fund, funding paid or received, trading
 * fees, and moves between the member's own accounts. Deposits, withdrawals, transfers and earnings come from
 * their own records (with status, network and hash); other kinds (holds, spot trades...) are not synced.
 */
export const STATEMENT_KINDS: ReadonlySet<string> = new Set([
  'contract:pnl',
  'contract:liquidation',
  'insurance:clearance',
  'contract:funding',
  'trade:fee',
  'account:transfer',
]);

export interface LedgerLine {
  /** The member's sub-account: cash, fund, contract, options or financial. */
  account: string;
  asset: string;
  /** Signed exact decimal string: positive into the account. */
  amount: string;
}

export interface LedgerLinesView {
  id: string;
  kind: string;
  ref: string;
  /** Unix seconds. */
  time: number;
  lines: LedgerLine[];
}

export function ledgerLinesView(entry: JournalEntry, memberId: string): LedgerLinesView {
  const prefix = `user:${memberId}:`;
  const net = new Map<string, { account: string; asset: string; amount: bigint }>();
  for (const leg of entry.legs) {
    if (!leg.account.startsWith(prefix)) continue;
    const account = leg.account.slice(prefix.length).split(':')[0] ?? 'cash';
    const key = `${account}|${leg.asset}`;
    const line = net.get(key) ?? { account, asset: leg.asset, amount: 0n };
    line.amount += BigInt(leg.amount);
    net.set(key, line);
  }
  return {
    id: entry.id,
    kind: entry.kind,
    ref: entry.ref,
    time: Math.floor(entry.at / 1000),
    lines: [...net.values()]
      .filter((l) => l.amount !== 0n)
      .map((l) => ({ account: l.account, asset: l.asset, amount: formatAmount(l.amount) })),
  };
}

/** The members who see an entry as statement lines: its members, when it is one of the statement's kinds. */
export function ledgerLineMembers(entry: JournalEntry): string[] {
  return STATEMENT_KINDS.has(entry.kind) ? entry.members : [];
}
