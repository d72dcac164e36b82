/**
 * The house's side of trading (docs/OPERATIONS.md "Market data and the house's risk"): house:market is the
 * counterparty of every member order, so what members hold the house owes. Operators see, per pair, the
 * house's net position (its coin inventory from spot trades plus the opposite of every open member
 * contract position) and what it is worth at the index, and can stop new orders in a pair (the kill switch;
 * a pair's members may still close contract positions). All figures exact, from the ledger and the open
 * positions.
 */
import type { Ctx } from '../context';
import { Codes, fail } from '../errors';
import { acct, USDT } from '../ledger';
import { findSymbol, type SymbolSpec } from '../market/symbols';
import { formatAmount, mulDiv, SCALE, type Micro } from '../money';
import { defineTable } from '../store/port';
import { unrealisedPnl } from './margin';
import { positions } from './tables';

export const HOUSE_MARKET = acct.house('market');

/** A pair whose new orders the operators stopped. */
export interface TradingHaltRow {
  /** The pair, "BTC/USDT". */
  id: string;
  haltedAt: number;
  reason: string | null;
}

export const tradingHalts = defineTable<TradingHaltRow>('tradingHalts', {});

export async function haltOf(ctx: Ctx, spec: SymbolSpec): Promise<TradingHaltRow | undefined> {
  return ctx.tx.get(tradingHalts, spec.symbol);
}

/**
 * The kill switch: refuses a new order in a halted pair (4037). `reducing`: a contract close, which stays
 * allowed so members can take risk off while the pair is stopped.
 */
export async function checkNotHalted(ctx: Ctx, spec: SymbolSpec, reducing: boolean): Promise<void> {
  if (reducing) return;
  const halt = await haltOf(ctx, spec);
  if (!halt) return;
  throw fail(Codes.tradingHalted, `Trading in ${spec.symbol} is paused by the operators`, {
    symbol: spec.symbol,
    since: Math.floor(halt.haltedAt / 1000),
  });
}

/** Sets or clears a pair's halt; false when it was already so. */
export async function setTradingHalt(
  ctx: Ctx,
  symbol: string,
  halted: boolean,
  reason?: string,
): Promise<boolean> {
  const spec = findSymbol(symbol);
  if (!spec) throw fail(400, `Unknown symbol "${symbol}"`);
  const current = await haltOf(ctx, spec);
  if (halted === Boolean(current)) return false;
  if (halted) {
    const text = reason?.trim() ?? '';
    ctx.tx.put(tradingHalts, {
      id: spec.symbol,
      haltedAt: ctx.now,
      reason: text ? text.slice(0, 500) : null,
    });
  } else {
    ctx.tx.delete(tradingHalts, spec.symbol);
  }
  return true;
}

/** The house's position in one pair (decimal strings; base quantities in the pair's coin). */
export interface PairRisk {
  symbol: string;
  /** The house's coin balance from spot trades: negative when members bought more than they sold. */
  spot: string;
  /** The opposite of the members' open contract positions (shorts minus longs). */
  contracts: string;
  /** spot + contracts: what the house is long (positive) or short (negative) of the coin. */
  net: string;
  /** The pair's index price, null when the engine has no market for it. */
  indexPrice: string | null;
  /** net at the index price, USDT. */
  exposure: string | null;
  /** The house's unrealised PnL on the contract side at the mark: minus the members'. */
  contractPnl: string | null;
  /** Where the prices come from now ("binance,okx,coinbase", "simulated"), and whether they are stale. */
  source: string | null;
  stale: boolean;
  halted: boolean;
  /** When the pair was halted (Unix seconds), null when it is not. */
  haltedAt: number | null;
  haltReason: string | null;
}

export interface HouseRisk {
  pairs: PairRisk[];
  /** house:market's USDT balance: what members paid for coins, funding, losses, less what it paid out. */
  cash: string;
  /**
   * The house's mark-to-market PnL since the start: cash + every coin it holds at the index + the contract
   * side's unrealised PnL. Null when a pair it holds has no price (a live engine without a market).
   */
  pnl: string | null;
  /** Unix seconds of the figures. */
  time: number;
}

export async function houseRisk(ctx: Ctx): Promise<HouseRisk> {
  const market = ctx.counterparties.market;
  const open = await ctx.tx.query(positions, 'open', 'open');
  const pairs: PairRisk[] = [];
  const cash = await ctx.ledger.balance(HOUSE_MARKET, USDT);
  let pnl: Micro | null = cash;
  const specs: SymbolSpec[] = market ? [...market.pairs()] : [];
  const seen = new Set(specs.map((s) => s.symbol));
  // Pairs the house still holds but the market no longer prices are listed too (with no price).
  for (const p of open) {
    const spec = findSymbol(p.symbol);
    if (spec && !seen.has(spec.symbol)) {
      seen.add(spec.symbol);
      specs.push(spec);
    }
  }
  for (const spec of specs) {
    const spot = await ctx.ledger.balance(HOUSE_MARKET, spec.base);
    const mine = open.filter((p) => p.symbol === spec.symbol && p.status === 'open');
    let contracts = 0n;
    for (const p of mine) contracts += p.side === 'long' ? -BigInt(p.volume) : BigInt(p.volume);
    const net = spot + contracts;
    const halt = await ctx.tx.get(tradingHalts, spec.symbol);
    const priced = market !== null && market.pairs().includes(spec);
    const status = priced ? market.status(spec, ctx.now) : null;
    let index: Micro | null = null;
    let contractPnl: Micro | null = null;
    if (priced) {
      index = market.indexPrice(spec, ctx.now);
      const mark = market.markPrice(spec, ctx.now);
      contractPnl = 0n;
      for (const p of mine)
        contractPnl -= unrealisedPnl(p.side, BigInt(p.volume), BigInt(p.entryPrice), mark);
    }
    const exposure = index === null ? null : signedValue(net, index);
    if (pnl !== null) {
      if (index === null || contractPnl === null) {
        if (spot !== 0n || mine.length > 0) pnl = null;
      } else {
        pnl += signedValue(spot, index) + contractPnl;
      }
    }
    pairs.push({
      symbol: spec.symbol,
      spot: formatAmount(spot),
      contracts: formatAmount(contracts),
      net: formatAmount(net),
      indexPrice: index === null ? null : formatAmount(index),
      exposure: exposure === null ? null : formatAmount(exposure),
      contractPnl: contractPnl === null ? null : formatAmount(contractPnl),
      source: status?.source ?? null,
      stale: status?.stale ?? false,
      halted: Boolean(halt),
      haltedAt: halt ? Math.floor(halt.haltedAt / 1000) : null,
      haltReason: halt?.reason ?? null,
    });
  }
  return { pairs, cash: formatAmount(cash), pnl: pnl === null ? null : formatAmount(pnl), time: ctx.nowSec };
}

/** quantity x price in micro-USDT, rounded half away from zero (a valuation, not a payment). */
function signedValue(quantity: Micro, price: Micro): Micro {
  const magnitude = mulDiv(quantity < 0n ? -quantity : quantity, price, SCALE, 'half-up');
  return quantity < 0n ? -magnitude : magnitude;
}
