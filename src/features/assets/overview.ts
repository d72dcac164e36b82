/**
 * The figures of /user's asset overview (docs/SPEC.md §12), pure so a test can check them: one card per
 * account from the engine's assetsView, whose valuations add up to the total exactly (micro-units), and
 * today's PnL from 00:00 UTC: positions closed today (realised PnL less fees and funding paid), earnings
 * credited today, and each open position's move since the day's start (its entry price if opened today,
 * else the mark at 00:00 UTC), less funding paid today. docs/DECISIONS.md "Wallet screens".
 */
import {
  formatMicro,
  mulMicro,
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

/** A replicated funding payment (engine/trading/views.ts fundingView; the synced `fundingPayments`). */
export interface FundingRecord {
  positionId: string;
  /** Unix seconds of the funding time. */
  time: number;
  markPrice: string;
  /** Positive: paid by the member. */
  amount: string;
}

/** 00:00 UTC of the day `nowMs` falls on (ms): the day today's PnL counts from. */
export function startOfDay(nowMs: number): number {
  const d = new Date(nowMs);
  d.setUTCHours(0, 0, 0, 0);
  return d.getTime();
}

/** (to - from) x size, toward zero at the micro-USDT (a long; a short is its negation). */
function move(from: Micro, to: Micro, size: Micro): Micro {
  const diff = to - from;
  const magnitude = mulMicro(diff < 0n ? -diff : diff, size, 'floor');
  return diff < 0n ? -magnitude : magnitude;
}

/**
 * Today's PnL since `sinceMs` (00:00 UTC): closed positions (net of fees and funding), earnings, and the open
 * positions' move today at `marks` (symbol -> mark price) less today's funding (and fees, opened today).
 */
export function todayPnl(
  positions: readonly PositionRecord[],
  profits: readonly ProfitRecord[],
  sinceMs: number,
  funding: readonly FundingRecord[] = [],
  marks: ReadonlyMap<string, string> = new Map(),
): string {
  let total = 0n;
  for (const p of positions) {
    if (p.status === 'open') {
      const mark = marks.get(p.symbol);
      if (mark === undefined) continue;
      const openedToday = p.openTime * 1000 >= sinceMs;
      const mine = funding.filter((f) => f.positionId === p.id);
      const atStart = mine.find((f) => f.time * 1000 === sinceMs);
      const start = micro(openedToday || !atStart ? p.entryPrice : atStart.markPrice);
      const long = move(start, micro(mark), micro(p.volume));
      total += p.side === 'long' ? long : -long;
      for (const f of mine) if (f.time * 1000 >= sinceMs) total -= micro(f.amount);
      if (openedToday) total -= micro(p.fees);
      continue;
    }
    if (p.closeTime === null || p.closeTime * 1000 < sinceMs) continue;
    total += micro(p.realisedPnl) - micro(p.fees) - micro(p.fundingPaid);
  }
  for (const e of profits) if (e.time * 1000 >= sinceMs) total += micro(e.amount);
  return formatMicro(total);
}
