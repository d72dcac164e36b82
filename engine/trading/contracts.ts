/**
 * Perpetual contracts against the simulated market (docs/RULES.md K1-K8): opening, closing and isolated
 * margin changes. Margin lives in the member's contract sub-account: each position's margin is frozen there
 * by one hold; cross positions are also backed by the account's free balance (risk.ts). Opening takes the
 * best ask (long) or bid (short), closing the other side. Fees (contractFeeBps of the notional) go to
 * platform:fees and are shared with the inviter; PnL is settled with house:market (settlement.ts).
 */
import type { Ctx } from '../context';
import { Codes, fail } from '../errors';
import { acct } from '../ledger';
import { marketOf } from '../market/instance';
import type { SymbolSpec } from '../market/symbols';
import { mulDiv, type Micro } from '../money';
import { chargeFee, feeOf } from './fees';
import { initialMargin, notional, unrealisedPnl } from './margin';
import { settingsOf } from './settings';
import { settlePnl } from './settlement';
import { blankOrder } from './spot';
import { orders, positions, type OrderRow, type PositionRow, type PositionSide } from './tables';

function quote(ctx: Ctx, spec: SymbolSpec): { ask: Micro; bid: Micro; mark: Micro } {
  const book = marketOf(ctx).book(spec, ctx.now, 1);
  const ask = book.asks[0]?.price ?? book.mid;
  const bid = book.bids[0]?.price ?? book.mid;
  return { ask: BigInt(ask), bid: BigInt(bid), mark: BigInt(book.mid) };
}

async function rehold(ctx: Ctx, position: PositionRow, margin: Micro): Promise<string> {
  await ctx.ledger.release(position.holdId);
  const hold = await ctx.ledger.hold({
    memberId: position.memberId,
    amount: margin,
    reason: 'position',
    ref: `position:${position.id}`,
    sub: 'contract',
    insufficientCode: Codes.insufficientBalance,
  });
  return hold.id;
}

export async function openPosition(
  ctx: Ctx,
  memberId: string,
  input: { spec: SymbolSpec; side: PositionSide; volume: Micro },
): Promise<OrderRow> {
  const settings = await settingsOf(ctx, memberId);
  const { ask, bid } = quote(ctx, input.spec);
  const entry = input.side === 'long' ? ask : bid;
  const margin = initialMargin(input.volume, entry, settings.leverage);
  const fee = feeOf(notional(input.volume, entry), ctx.config.contractFeeBps);
  if (margin < 1_000_000n) throw fail(400, 'Order margin must be at least 1 USDT');
  const contract = acct.user(memberId, 'contract');
  if ((await ctx.ledger.balance(contract)) < margin + fee) {
    throw fail(Codes.insufficientBalance, 'Insufficient balance in the contract account');
  }
  const id = await ctx.ids.next('tradeOrder');
  await chargeFee(ctx, memberId, 'contract', fee, `order:${id}`);
  const slot = `${memberId}:${input.spec.symbol}:${input.side}`;
  const existing = (await ctx.tx.query(positions, 'slot', slot))[0];
  let position: PositionRow;
  if (existing) {
    const q0 = BigInt(existing.volume);
    const volume = q0 + input.volume;
    const entryAvg = mulDiv(q0 * BigInt(existing.entryPrice) + input.volume * entry, 1n, volume, 'half-up');
    const total = BigInt(existing.margin) + margin;
    position = {
      ...existing,
      volume: volume.toString(),
      entryPrice: entryAvg.toString(),
      margin: total.toString(),
      holdId: await rehold(ctx, existing, total),
      fees: (BigInt(existing.fees) + fee).toString(),
    };
  } else {
    const positionId = await ctx.ids.next('position');
    const hold = await ctx.ledger.hold({
      memberId,
      amount: margin,
      reason: 'position',
      ref: `position:${positionId}`,
      sub: 'contract',
      insufficientCode: Codes.insufficientBalance,
    });
    position = {
      id: positionId,
      memberId,
      symbol: input.spec.symbol,
      side: input.side,
      volume: input.volume.toString(),
      entryPrice: entry.toString(),
      leverage: settings.leverage,
      marginMode: settings.marginMode,
      margin: margin.toString(),
      holdId: hold.id,
      status: 'open',
      openedAt: ctx.now,
      closedAt: null,
      realisedPnl: '0',
      fees: fee.toString(),
      liquidationPrice: null,
    };
  }
  ctx.tx.put(positions, position);
  const order: OrderRow = {
    ...blankOrder(
      id,
      memberId,
      { spec: input.spec, side: 'buy', type: 'market', price: null, volume: input.volume },
      ctx.now,
    ),
    market: 'contract',
    side: input.side === 'long' ? 'open_long' : 'open_short',
    filled: input.volume.toString(),
    avgPrice: entry.toString(),
    fee: fee.toString(),
    status: 'filled',
    leverage: settings.leverage,
    marginMode: settings.marginMode,
    positionId: position.id,
  };
  ctx.tx.put(orders, order);
  return order;
}

export async function closePosition(
  ctx: Ctx,
  memberId: string,
  input: { spec: SymbolSpec; side: PositionSide; volume: Micro | null },
): Promise<OrderRow> {
  const position = (
    await ctx.tx.query(positions, 'slot', `${memberId}:${input.spec.symbol}:${input.side}`)
  )[0];
  if (!position) throw fail(Codes.notFound, `No open ${input.side} position in ${input.spec.symbol}`);
  const total = BigInt(position.volume);
  const q = input.volume ?? total;
  if (q > total) throw fail(400, 'Volume is more than the open position');
  const { ask, bid } = quote(ctx, input.spec);
  const exit = input.side === 'long' ? bid : ask;
  const entry = BigInt(position.entryPrice);
  const margin = BigInt(position.margin);
  const part = q === total ? margin : mulDiv(margin, q, total, 'floor');
  const id = await ctx.ids.next('tradeOrder');
  const ref = `order:${id}`;
  await ctx.ledger.release(position.holdId);
  const cap =
    position.marginMode === 'isolated' ? part : await ctx.ledger.balance(acct.user(memberId, 'contract'));
  const pnl = await settlePnl(ctx, memberId, unrealisedPnl(input.side, q, entry, exit), cap, ref);
  const available = await ctx.ledger.balance(acct.user(memberId, 'contract'));
  const wanted = feeOf(notional(q, exit), ctx.config.contractFeeBps);
  const fee = wanted < available ? wanted : available;
  await chargeFee(ctx, memberId, 'contract', fee, ref);
  const rest = total - q;
  const next: PositionRow = {
    ...position,
    volume: rest.toString(),
    margin: (margin - part).toString(),
    realisedPnl: (BigInt(position.realisedPnl) + pnl).toString(),
    fees: (BigInt(position.fees) + fee).toString(),
  };
  if (rest === 0n) {
    next.status = 'closed';
    next.closedAt = ctx.now;
  } else {
    const hold = await ctx.ledger.hold({
      memberId,
      amount: margin - part,
      reason: 'position',
      ref: `position:${position.id}`,
      sub: 'contract',
    });
    next.holdId = hold.id;
  }
  ctx.tx.put(positions, next);
  const order: OrderRow = {
    ...blankOrder(
      id,
      memberId,
      { spec: input.spec, side: 'sell', type: 'market', price: null, volume: q },
      ctx.now,
    ),
    market: 'contract',
    side: input.side === 'long' ? 'close_long' : 'close_short',
    filled: q.toString(),
    avgPrice: exit.toString(),
    fee: fee.toString(),
    status: 'filled',
    leverage: position.leverage,
    marginMode: position.marginMode,
    positionId: position.id,
    pnl: pnl.toString(),
  };
  ctx.tx.put(orders, order);
  return order;
}

/** Adds (positive) or removes (negative) isolated margin; never below the initial margin (K5). */
export async function adjustMargin(
  ctx: Ctx,
  memberId: string,
  positionId: string,
  delta: Micro,
): Promise<PositionRow> {
  const position = await ctx.tx.get(positions, positionId);
  if (!position || position.memberId !== memberId || position.status !== 'open') {
    throw fail(Codes.notFound, 'Position not found');
  }
  if (position.marginMode !== 'isolated') throw fail(400, 'Cross positions share the contract account');
  if (delta === 0n) throw fail(400, 'Amount must not be zero');
  const next = BigInt(position.margin) + delta;
  const floor = initialMargin(BigInt(position.volume), BigInt(position.entryPrice), position.leverage);
  if (next < floor) throw fail(400, 'Margin cannot go below the initial margin of the position');
  const updated: PositionRow = {
    ...position,
    margin: next.toString(),
    holdId: await rehold(ctx, position, next),
  };
  ctx.tx.put(positions, updated);
  return updated;
}
