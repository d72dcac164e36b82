/**
 * One simulator per engine seed and market model. MarketSim is pure (a function of seed, model and time)
 * and holds only caches, so sharing it between units of work, and between engines opened with the same
 * seed, is safe.
 */
import { DEFAULT_MARKET_MODEL } from './hourly';
import type { MarketModel } from './hourly';
import { MarketSim } from './market';

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

/** The simulator of a unit of work: its engine's seed and configured market model. */
export function marketOf(ctx: { seed: number; config: { marketModel: MarketModel } }): MarketSim {
  return marketFor(ctx.seed, ctx.config.marketModel);
}
