/**
 * One simulator per engine seed. MarketSim is pure (a function of seed and time) and holds only caches, so
 * sharing it between units of work, and between engines opened with the same seed, is safe.
 */
import { MarketSim } from './market';

const instances = new Map<number, MarketSim>();

export function marketFor(seed: number): MarketSim {
  let sim = instances.get(seed);
  if (!sim) {
    if (instances.size >= 8) instances.clear();
    sim = new MarketSim(seed);
    instances.set(seed, sim);
  }
  return sim;
}
