/**
 * /api/order/place, cancel, list and /api/position/list, margin, settings; the option settlement job and
 * the trading.watch hook (resting orders and liquidations).
 */
import { z } from 'zod';
import type { AuthCtx } from '../context';
import type { ListResult } from '../contract';
import { Codes, fail } from '../errors';
import { requireSymbol } from '../market/handlers';
import { formatAmount, tryParseAmount, type Micro } from '../money';
import { handler } from '../router';
import type { Domain } from '../routes';
import { amount, body, listShape, newestFirst, paginate } from '../schema';
import { idField } from '../finance/handlers';
import { adjustMargin, closePosition, openPosition } from './contracts';
import { markOf } from './risk';
import { fundingPayments, settleFunding } from './funding';
import { FUNDING_INTERVAL_MS } from './mark';
import { MARKET_OFF, marketOf } from '../market/instance';
import { checkNotHalted } from './house';
import { acct } from '../ledger';
import { changeSettings } from './settings';
import { placeOption, SETTLE_JOB, settleOption } from './options';
import { placeSpot } from './spot';
import { openPositions, orders, type OrderRow } from './tables';
import {
  fundingView,
  liveCross,
  livePositions,
  orderView,
  positionRecord,
  triggersView,
  type FundingView,
  type PositionTriggersView,
  type OrderView,
  type PositionView,
} from './views';
import { watchMarkets } from './watch';
import { checkTriggers, markNow, setTriggers } from './triggers';
import type { CrossView } from './position-figures';

const SIDES = ['buy', 'sell', 'open_long', 'open_short', 'close_long', 'close_short', 'up', 'down'] as const;
const marginMode = z.enum(['cross', 'isolated']);
const leverage = z.number().int();

/** A signed decimal amount ("-12.5"): margin can be added or reduced. */
const signedAmount = z.unknown().transform((value, ctx) => {
  const negative = typeof value === 'string' && value.startsWith('-');
  const parsed = tryParseAmount(negative ? (value as string).slice(1) : value);
  if (!parsed.ok) {
    ctx.addIssue({ code: 'custom', message: `amount ${parsed.reason}` });
    return z.NEVER;
  }
  return negative ? -parsed.value : parsed.value;
});

const placeBody = body({
  symbol: z.string(),
  market: z.enum(['spot', 'contract', 'option']),
  side: z.enum(SIDES),
  type: z.enum(['market', 'limit']).optional(),
  price: amount.optional(),
  volume: amount,
  leverage: leverage.optional(),
  marginMode: marginMode.optional(),
  period: z.number().int().optional(),
  takeProfit: amount.optional(),
  stopLoss: amount.optional(),
});

/** A trigger price, or null to remove it (/api/position/tpsl). */
const triggerPrice = z.union([z.null(), amount]).optional();

type PlaceInput = z.output<typeof placeBody>;

async function place(ctx: AuthCtx, input: PlaceInput): Promise<OrderRow> {
  const spec = requireSymbol(input.symbol);
  const market = marketOf(ctx);
  if (!market.pairs().includes(spec)) throw fail(400, `${spec.symbol} is not traded here`);
  await checkNotHalted(ctx, spec, input.side === 'close_long' || input.side === 'close_short');
  // No order fills on a stale index (docs/TRADING.md "When prices are stale"): it clears by itself.
  const status = market.status(spec, ctx.now);
  if (status.stale) {
    throw fail(
      Codes.marketStale,
      `Prices for ${spec.symbol} are stale: orders are paused until fresh prices come back`,
      { symbol: spec.symbol, since: Math.floor(status.time / 1000) },
    );
  }
  const volume: Micro = input.volume;
  if (volume <= 0n) throw fail(400, 'Volume must be greater than zero');
  const type = input.type ?? 'market';
  const memberId = ctx.member.id;
  if (input.market === 'spot') {
    if (input.side !== 'buy' && input.side !== 'sell') throw fail(400, 'Spot orders are buy or sell');
    if (type === 'limit' && (input.price === undefined || input.price <= 0n)) {
      throw fail(400, 'A limit order needs a price');
    }
    const price = type === 'limit' ? (input.price ?? null) : null;
    return placeSpot(ctx, memberId, { spec, side: input.side, type, price, volume });
  }
  const triggers = { takeProfit: input.takeProfit, stopLoss: input.stopLoss };
  const opening = input.side === 'open_long' || input.side === 'open_short';
  if ((triggers.takeProfit !== undefined || triggers.stopLoss !== undefined) && !opening) {
    throw fail(400, 'takeProfit and stopLoss go with a contract open_long or open_short');
  }
  if (input.market === 'contract') {
    if (type !== 'market') throw fail(400, 'Contract orders are market orders');
    // Checked before anything is written: a trigger the mark is already past would fire at once.
    if (opening) checkTriggers(input.side === 'open_long' ? 'long' : 'short', markNow(ctx, spec), triggers);
    if (input.leverage !== undefined || input.marginMode !== undefined) {
      await changeSettings(ctx, memberId, { leverage: input.leverage, marginMode: input.marginMode });
    }
    switch (input.side) {
      case 'open_long':
        return openPosition(ctx, memberId, { spec, side: 'long', volume, triggers });
      case 'open_short':
        return openPosition(ctx, memberId, { spec, side: 'short', volume, triggers });
      case 'close_long':
        return closePosition(ctx, memberId, { spec, side: 'long', volume });
      case 'close_short':
        return closePosition(ctx, memberId, { spec, side: 'short', volume });
      default:
        throw fail(400, 'Contract orders are open_long, open_short, close_long or close_short');
    }
  }
  if (input.side !== 'up' && input.side !== 'down') throw fail(400, 'Option orders are up or down');
  if (input.period === undefined) throw fail(400, 'An option needs a period in seconds');
  return placeOption(ctx, memberId, { spec, side: input.side, stake: volume, period: input.period });
}

export const TRADING_OFF = MARKET_OFF;

export const tradingDomain: Domain = {
  name: 'trading',
  handlers: {
    '/api/order/place': handler({
      auth: true,
      body: placeBody,
      run: async (ctx, input): Promise<OrderView> => {
        // Orders fill at the engine's market (the simulator, or a live server's venues): none, no orders.
        if (!ctx.counterparties.market) throw fail(Codes.denied, TRADING_OFF);
        return orderView(await place(ctx, input));
      },
    }),
    '/api/order/cancel': handler({
      auth: true,
      body: body({ id: idField }),
      run: async (ctx, input): Promise<OrderView> => {
        const order = await ctx.tx.get(orders, input.id);
        if (!order || order.memberId !== ctx.member.id) throw fail(Codes.notFound, 'Order not found');
        if (order.status !== 'open' || order.market !== 'spot') {
          throw fail(400, 'Only open spot limit orders can be cancelled');
        }
        if (order.holdId) await ctx.ledger.release(order.holdId);
        const cancelled: OrderRow = { ...order, status: 'cancelled', updatedAt: ctx.now };
        ctx.tx.put(orders, cancelled);
        return orderView(cancelled);
      },
    }),
    '/api/order/list': handler({
      auth: true,
      body: body({
        ...listShape,
        status: z.enum(['open', 'filled', 'partial', 'cancelled', 'settled']).optional(),
        market: z.enum(['spot', 'contract', 'option']).optional(),
      }),
      run: async (ctx, input): Promise<ListResult<OrderView>> => {
        const rows = (await ctx.tx.query(orders, 'member', ctx.member.id)).filter(
          (o) => (!input.status || o.status === input.status) && (!input.market || o.market === input.market),
        );
        return paginate(newestFirst(rows).map(orderView), input);
      },
    }),
    '/api/position/list': handler({
      auth: true,
      body: body({ market: z.enum(['contract']).optional() }),
      run: async (ctx): Promise<{ list: PositionView[]; cross: CrossView }> => {
        const open = newestFirst(await openPositions(ctx, ctx.member.id));
        const market = marketOf(ctx);
        const available = await ctx.ledger.balance(acct.user(ctx.member.id, 'contract'));
        const records = open.map(positionRecord);
        const marks = (symbol: string) => markOf(ctx, symbol);
        const live = livePositions(records, available, marks, ctx.config.riskTiers);
        const list = live.map((p): PositionView => {
          const spec = requireSymbol(p.symbol);
          return {
            ...p,
            indexPrice: formatAmount(market.indexPrice(spec, ctx.now)),
            lastPrice: formatAmount(market.lastPrice(spec, ctx.now)),
          };
        });
        return { list, cross: liveCross(records, available, marks, ctx.config.riskTiers) };
      },
    }),
    '/api/position/funding': handler({
      auth: true,
      body: body({ ...listShape, positionId: idField.optional() }),
      run: async (ctx, input): Promise<ListResult<FundingView>> => {
        const rows = (await ctx.tx.query(fundingPayments, 'member', ctx.member.id)).filter(
          (r) => input.positionId === undefined || r.positionId === String(input.positionId),
        );
        rows.sort((a, b) => b.at - a.at || Number(b.id) - Number(a.id));
        return paginate(rows.map(fundingView), input);
      },
    }),
    '/api/position/margin': handler({
      auth: true,
      body: body({ id: idField, amount: signedAmount }),
      run: async (ctx, input) => {
        const p = await adjustMargin(ctx, ctx.member.id, input.id, input.amount);
        return { id: p.id, margin: formatAmount(BigInt(p.margin)) };
      },
    }),
    '/api/position/tpsl': handler({
      auth: true,
      body: body({ id: idField, takeProfit: triggerPrice, stopLoss: triggerPrice }),
      run: async (ctx, input): Promise<PositionTriggersView> => {
        const p = await setTriggers(ctx, ctx.member.id, input.id, requireSymbol, {
          takeProfit: input.takeProfit,
          stopLoss: input.stopLoss,
        });
        return triggersView(p);
      },
    }),
    '/api/position/settings': handler({
      auth: true,
      body: body({ leverage: leverage.optional(), marginMode: marginMode.optional() }),
      run: async (ctx, input) => {
        const s = await changeSettings(ctx, ctx.member.id, input);
        return { leverage: s.leverage, marginMode: s.marginMode };
      },
    }),
  },
  jobs: { [SETTLE_JOB]: settleOption },
  periodic: [
    { name: 'trading.watch', intervalMs: 1_000, run: watchMarkets },
    { name: 'trading.funding', intervalMs: FUNDING_INTERVAL_MS, run: settleFunding },
  ],
};
