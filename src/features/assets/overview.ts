/**
 * The figures of /user's asset overview (docs/SPEC.md §12), pure so a test can check them: one card per
 * account from the engine's own assetsView (the device's replica valued at its quotes), whose valuations add
 * up to the total exactly (micro-units, never floats), and today's PnL.
 *
 * Today's PnL (since the device's local midnight) is what the member realised today: each contract position
 * closed or liquidated today (its realised PnL less its fees and the funding it paid; docs/DECISIONS.md) and
 * each earning credited today (finance interest, mining, invitation shares). The open positions' unrealised
 * PnL is shown apart, on the contracts card: the replica keeps no value of it at midnight to measure from.
 */
import {
  formatMicro,
  parseAmount,
  type AssetsView,
  type Micro,
  type PositionRecord,
  type SubAccount,
} from '../../../engine/index';

export interface AccountCard {
  account: SubAccount;
  valuation: string;
  available: string;
  frozen: string;
  /** Contracts only: the open positions' unrealised PnL at the marks. */
  unrealisedPnl: string | null;
}

function micro(value: string | null | undefined): Micro {
  if (!value) return 0n;
  const negative = value.startsWith('-');
  try {
    const v = parseAmount(negative ? value.slice(1) : value);
    return negative ? -v : v;
  } catch {
    return 0n;
  }
}

export function accountCards(view: AssetsView): AccountCard[] {
  return view.accounts.map((a) => ({
    account: a.account,
    valuation: a.valuation,
    available: a.available,
    frozen: a.frozen,
    unrealisedPnl: a.account === 'contract' ? a.unrealisedPnl : null,
  }));
}

/** The cards' valuations added up (the overview's total, and the test's check that they make it). */
export function cardsTotal(cards: readonly AccountCard[]): string {
  return formatMicro(cards.reduce((sum, c) => sum + micro(c.valuation), 0n));
}

/** A replicated profit log row (engine/finance/views.ts profitView). */
export interface ProfitRecord {
  id: string;
  amount: string;
  /** Unix seconds. */
  time: number;
}

/** Local midnight of the day `nowMs` falls on (ms). */
export function startOfDay(nowMs: number): number {
  const d = new Date(nowMs);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}

/** What the member realised since `sinceMs`: closed positions (net of fees and funding) and earnings. */
export function todayPnl(
  positions: readonly PositionRecord[],
  profits: readonly ProfitRecord[],
  sinceMs: number,
): string {
  let total = 0n;
  for (const p of positions) {
    if (p.status === 'open' || p.closeTime === null || p.closeTime * 1000 < sinceMs) continue;
    total += micro(p.realisedPnl) - micro(p.fees) - micro(p.fundingPaid);
  }
  for (const e of profits) if (e.time * 1000 >= sinceMs) total += micro(e.amount);
  return formatMicro(total);
}
