/**
 * The catalogue of managed-finance products (SPEC.md §3, API.md "Finance"). Every product is a 30-day
 * fixed term; the annual rate depends on the product and the member's VIP level at purchase (8%-22%).
 * Each product sells a fixed amount per round; a round is one UTC day, so "purchasable this round"
 * refills every midnight (UTC). Principal is locked for the whole term: no early redemption (F6).
 */
import { units } from '../money';
import type { Micro } from '../money';

export const DAY_MS = 86_400_000;

export interface ProductSpec {
  id: string;
  name: string;
  /** Product family shown as a filter: 'stable', 'growth', 'premium'. */
  type: 'stable' | 'growth' | 'premium';
  currency: 'USDT';
  /** Annual rate in basis points for VIP1..VIP6 (index 0 is VIP1). */
  ratesBps: readonly [number, number, number, number, number, number];
  min: Micro;
  max: Micro;
  /** Most a member may hold in this product at once (active subscriptions). */
  personalLimit: Micro;
  /** Amount offered per round (one UTC day). */
  roundAmount: Micro;
  /** Refuses accounts younger than config.establishedMemberMs (4034). */
  establishedOnly: boolean;
}

export const PRODUCTS: readonly ProductSpec[] = [
  {
    id: '1',
    name: 'USDT Starter 30D',
    type: 'stable',
    currency: 'USDT',
    ratesBps: [800, 800, 850, 850, 900, 900],
    min: units(10),
    max: units(2_000),
    personalLimit: units(2_000),
    roundAmount: units(1_000_000),
    establishedOnly: false,
  },
  {
    id: '2',
    name: 'USDT Stable 30D',
    type: 'stable',
    currency: 'USDT',
    ratesBps: [1000, 1050, 1100, 1150, 1200, 1300],
    min: units(100),
    max: units(50_000),
    personalLimit: units(100_000),
    roundAmount: units(5_000_000),
    establishedOnly: false,
  },
  {
    id: '3',
    name: 'USDT Growth 30D',
    type: 'growth',
    currency: 'USDT',
    ratesBps: [1300, 1400, 1500, 1600, 1700, 1800],
    min: units(500),
    max: units(100_000),
    personalLimit: units(200_000),
    roundAmount: units(3_000_000),
    establishedOnly: false,
  },
  {
    id: '4',
    name: 'USDT Premium 30D',
    type: 'premium',
    currency: 'USDT',
    ratesBps: [1600, 1700, 1800, 1950, 2100, 2200],
    min: units(1_000),
    max: units(500_000),
    personalLimit: units(1_000_000),
    roundAmount: units(2_000_000),
    establishedOnly: true,
  },
];

export function findProduct(id: string): ProductSpec | undefined {
  return PRODUCTS.find((p) => p.id === id);
}

/** The rate for a VIP level; VIP0 sees the VIP1 rate as the entry rate (it cannot buy: 3009). */
export function rateFor(product: ProductSpec, vip: number): number {
  const index = Math.min(Math.max(vip, 1), 6) - 1;
  return product.ratesBps[index] ?? product.ratesBps[0];
}

/** The round (UTC day number) a time falls in, and its bounds. */
export function roundOf(now: number): { round: number; start: number; end: number } {
  const round = Math.floor(now / DAY_MS);
  return { round, start: round * DAY_MS, end: (round + 1) * DAY_MS };
}
