/**
 * Take-profit and stop-loss of a contract position (docs/TRADING.md "Take-profit and stop-loss", RULES.md
 * K15-K17): two mark prices at which the whole position is closed at market. Set with the opening order
 * (/api/order/place `takeProfit`, `stopLoss`) or on an open position (/api/position/tpsl); checked against
 * the mark when set (a long's take-profit above it and stop-loss below it, a short's the other way round:
 * 4038, 4039), and fired by the watch (watch.ts) at the first second the mark reaches either.
 */
import type { Ctx } from '../context';
import { Codes, fail } from '../errors';
import { marketOf } from '../market/instance';
import type { SymbolSpec } from '../market/symbols';
import { formatAmount, type Micro } from '../money';
import { positions, type PositionRow, type PositionSide } from './tables';

/** Each price: a Micro sets it, null removes it, undefined leaves it as it is. */
export interface Triggers {
  takeProfit?: Micro | null;
  stopLoss?: Micro | null;
}

/** The prices a position's triggers close it at, as stored (null: none). */
export function triggersOf(p: PositionRow): { takeProfit: Micro | null; stopLoss: Micro | null } {
  return {
    takeProfit: p.takeProfit ? BigInt(p.takeProfit) : null,
    stopLoss: p.stopLoss ? BigInt(p.stopLoss) : null,
  };
}

/**
 * Refuses a take-profit or stop-loss on the wrong side of `mark` (or not above zero): a long's take-profit
 * must be above the mark and its stop-loss below, a short's the reverse, or it would fire at once.
 */
export function checkTriggers(side: PositionSide, mark: Micro, triggers: Triggers): void {
  const data = { markPrice: formatAmount(mark) };
  const { takeProfit: tp, stopLoss: sl } = triggers;
  if (tp !== undefined && tp !== null && (tp <= 0n || (side === 'long' ? tp <= mark : tp >= mark))) {
    throw fail(
      Codes.takeProfitSide,
      side === 'long'
        ? `A long's take-profit must be above the mark price ${data.markPrice}`
        : `A short's take-profit must be below the mark price ${data.markPrice} and above zero`,
      data,
    );
  }
  if (sl !== undefined && sl !== null && (sl <= 0n || (side === 'long' ? sl >= mark : sl <= mark))) {
    throw fail(
      Codes.stopLossSide,
      side === 'long'
        ? `A long's stop-loss must be below the mark price ${data.markPrice} and above zero`
        : `A short's stop-loss must be above the mark price ${data.markPrice}`,
      data,
    );
  }
}

/** The row fields that store `triggers` set at `now` (nothing when neither is given). */
export function triggerFields(
  triggers: Triggers | undefined,
  now: number,
): Pick<PositionRow, 'takeProfit' | 'stopLoss' | 'triggersSetAt'> {
  if (!triggers || (triggers.takeProfit === undefined && triggers.stopLoss === undefined)) return {};
  const out: Pick<PositionRow, 'takeProfit' | 'stopLoss' | 'triggersSetAt'> = { triggersSetAt: now };
  if (triggers.takeProfit !== undefined) out.takeProfit = triggers.takeProfit?.toString() ?? null;
  if (triggers.stopLoss !== undefined) out.stopLoss = triggers.stopLoss?.toString() ?? null;
  return out;
}

/** The mark of `spec` now, which a new take-profit or stop-loss is checked against. */
export function markNow(ctx: Ctx, spec: SymbolSpec): Micro {
  return marketOf(ctx).markPrice(spec, ctx.now);
}

/** /api/position/tpsl: sets or removes an open position's take-profit and stop-loss. */
export async function setTriggers(
  ctx: Ctx,
  memberId: string,
  positionId: string,
  spec: (symbol: string) => SymbolSpec,
  triggers: Triggers,
): Promise<PositionRow> {
  const position = await ctx.tx.get(positions, positionId);
  if (!position || position.memberId !== memberId || position.status !== 'open') {
    throw fail(Codes.notFound, 'Position not found');
  }
  if (triggers.takeProfit === undefined && triggers.stopLoss === undefined) {
    throw fail(400, 'Give takeProfit, stopLoss or both (null removes one)');
  }
  checkTriggers(position.side, markNow(ctx, spec(position.symbol)), triggers);
  const updated: PositionRow = { ...position, ...triggerFields(triggers, ctx.now) };
  ctx.tx.put(positions, updated);
  return updated;
}
