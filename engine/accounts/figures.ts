/**
 * getuser's money figures, one pure function shared by the engine (memberView, from the ledger) and the
 * device (src/sync/member-views.ts, from the replica), so both agree to the micro-unit (issue 15: no copied
 * aggregation). Imports only the money module and the account names, so it stays small in the app.
 */
import { SUB_ACCOUNTS, USDT } from '../ledger/accounts';
import { formatAmount, type Micro } from '../money';

/** One balance of a member, as the ledger holds it or as the device replicates it (engine/sync/views.ts). */
export interface BalanceFigure {
  sub: string;
  frozen: boolean;
  asset: string;
  amount: Micro;
}

/** The money half of MemberView. */
export interface MemberFigures {
  /** Cash: available + frozen. */
  balance: string;
  available: string;
  frozen: string;
  /** USDT across all sub-accounts (cash, fund, contract, options, financial), frozen included. */
  totalAssets: string;
}

const SUBS: ReadonlySet<string> = new Set(SUB_ACCOUNTS);

/**
 * getuser's figures from a member's balances, one pure function for the engine (from the ledger) and the
 * device (from its replica, src/sync/member-views.ts): balance = cash available + cash frozen; totalAssets =
 * USDT across every sub-account, frozen included. Other assets and unknown sub-accounts do not count.
 */
export function memberFigures(rows: Iterable<BalanceFigure>): MemberFigures {
  let available = 0n;
  let frozen = 0n;
  let total = 0n;
  for (const row of rows) {
    if (row.asset !== USDT || !SUBS.has(row.sub)) continue;
    total += row.amount;
    if (row.sub !== 'cash') continue;
    if (row.frozen) frozen += row.amount;
    else available += row.amount;
  }
  return {
    balance: formatAmount(available + frozen),
    available: formatAmount(available),
    frozen: formatAmount(frozen),
    totalAssets: formatAmount(total),
  };
}
