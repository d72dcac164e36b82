/**
 * One simulator per engine seed and market model. MarketSim is pure (a function of seed, model and time)
 * and holds only caches, so sharing it between units of work, and between engines opened with the same
 * seed, is safe.
 *
 * `marketOf(ctx)` is the engine's market: the simulator in demo mode, the live source a server handed in
 * (engine/market/source.ts). A live engine without one has none: calls that need prices answer 403.
 */
import type { Counterparties } from '../counterparties';
import { Codes, fail } from '../errors';
import { DEFAULT_MARKET_MODEL } from './hourly';
import type { MarketModel } from './hourly';
import { MarketSim } from './market';
import type { MarketSource } from './source';

const instances = new Map<string, MarketSim>();

export function marketFor(seed: number, model: MarketModel = DEFAULT_MARKET_MODEL): MarketSim {
  const key = model === DEFAULT_MARKET_MODEL ? String(seed) : `${seed}:${JSON.stringify(model)}`;
  let sim = instances.get(key);
  if (!sim) {
    if (instances.size >= 8) instances.clear();
    sim = new MarketSim(seed, model);
    instances.set(key, sim);
  }
  return sim;
}

export const MARKET_OFF = 'Trading is not available: no market is connected';

/** The engine's market (prices, books, candles), or 403 when a live engine has none. */
export function marketOf(ctx: { counterparties: Pick<Counterparties, 'market'> }): MarketSource {
  const market = ctx.counterparties.market;
  if (!market) throw fail(Codes.denied, MARKET_OFF);
  return market;
}
