/**
 * What /api/user/getuser answers, computed on the device from the replicated profile and balances (the
 * engine's views in engine/sync/views.ts). The money figures come from the engine's own memberFigures
 * (engine/accounts/figures.ts), the function getuser uses, so they agree to the micro-unit.
 */
import {
  assetsView,
  inviteSummary,
  liveCross,
  livePositions,
  memberFigures,
  parseAmount,
  positionAtMark,
  unrealisedTotalAt,
  type AssetsView,
  type BalanceFigure,
  type CrossView,
  type InviteeRecord,
  type InviteView,
  type LivePosition,
  type MemberProfile,
  type Micro,
  type PositionRecord,
  type PreviewAccount,
  type Quote,
} from '../../engine/index';

/** The replicated profile (engine/sync/views.ts `profile`). */
export interface ReplicaProfile {
  id: string;
  username: string;
  email: string | null;
  phone: string | null;
  vip: string;
  vipExpiresAt: number | null;
  realNameStatus: MemberProfile['realNameStatus'];
  inviteCode: string;
  /** The inviter's share of invitees' fees, percent (absent in profiles pulled before it was sent). */
  inviteShareRate?: string;
  createdAt: number;
  creditScore?: number;
}

/** A replicated balance row (engine/sync/views.ts `balance`). */
export interface ReplicaBalance {
  id: string;
  sub: string;
  frozen: boolean;
  asset: string;
  amount: string;
}

/**
 * Whether the member's balances are known on the device: some balance rows are there, or a pull has completed
 * (a member with no balance rows at all then holds nothing). A first pull brings the member's own row long
 * before the balances (a row comes at its latest change, and every transfer changes the balances, so with
 * thousands of records they are in the last page): in between, the figures are unknown ("--"), not zero.
 */
export function balancesKnown(
  balances: readonly ReplicaBalance[] | undefined,
  pulledAt: number | null,
): boolean {
  return (balances?.length ?? 0) > 0 || pulledAt !== null;
}

function micro(amount: string): Micro {
  try {
    return parseAmount(amount);
  } catch {
    return 0n;
  }
}

/** The member's level at `nowMs`: an expired VIP level counts as vip0, as the engine's effectiveVip says. */
export function effectiveVipName(
  profile: Pick<ReplicaProfile, 'vip' | 'vipExpiresAt'>,
  nowMs: number,
): string {
  if (profile.vipExpiresAt !== null && profile.vipExpiresAt * 1000 <= nowMs) return 'vip0';
  return profile.vip;
}

export function profileFromReplica(
  profile: ReplicaProfile,
  balances: readonly ReplicaBalance[],
  nowMs: number,
): MemberProfile {
  const vip = effectiveVipName(profile, nowMs);
  return {
    id: profile.id,
    username: profile.username,
    email: profile.email,
    phone: profile.phone,
    vip,
    vipExpiresAt: vip !== 'vip0' ? profile.vipExpiresAt : null,
    ...memberFigures(balances.map((b) => ({ ...b, amount: micro(b.amount) }))),
    creditScore: profile.creditScore ?? 0,
    realNameStatus: profile.realNameStatus,
    inviteCode: profile.inviteCode,
    createdAt: profile.createdAt,
  };
}

/** The replicated balance rows as the engine's figures (exact micro-units). */
export function balanceFigures(balances: readonly ReplicaBalance[]): BalanceFigure[] {
  return balances.map((b) => ({ sub: b.sub, frozen: b.frozen, asset: b.asset, amount: micro(b.amount) }));
}

/** The contract account's free USDT: what backs cross positions. */
export function contractAvailable(balances: readonly ReplicaBalance[]): Micro {
  let total = 0n;
  for (const b of balances)
    if (b.sub === 'contract' && !b.frozen && b.asset === 'USDT') total += micro(b.amount);
  return total;
}

/**
 * Each pair's contract mark price from the quotes the screen has (the feed's `ticker24hr`/`Curr` carry it);
 * a quote kept from before the mark was sent falls back to its latest price.
 */
export function marksOf(quotes: readonly Quote[]): (symbol: string) => Micro {
  const marks = new Map(quotes.map((q) => [q.symbol, micro(q.markPrice ?? q.latest)]));
  return (symbol) => marks.get(symbol) ?? 0n;
}

/** A coin's latest price from the quotes (its pair against USDT); USDT itself is valued by the engine. */
export function pricesOf(quotes: readonly Quote[]): (asset: string) => Micro {
  const prices = new Map(quotes.map((q) => [q.base, micro(q.latest)]));
  return (asset) => prices.get(asset) ?? 0n;
}

/** Newest position first, as /api/position/list answers (engine ids are counters). */
function newestPositionFirst(a: PositionRecord, b: PositionRecord): number {
  return Number(b.id) - Number(a.id) || (b.id < a.id ? -1 : b.id > a.id ? 1 : 0);
}

/** What /api/position/list answers (without the index and last prices), from the replica and the marks. */
export function positionsFromReplica(
  positions: readonly PositionRecord[],
  balances: readonly ReplicaBalance[],
  quotes: readonly Quote[],
): LivePosition[] {
  return livePositions(
    [...positions].sort(newestPositionFirst),
    contractAvailable(balances),
    marksOf(quotes),
  );
}

/** The cross account /api/position/list answers beside the positions, from the replica and the marks. */
export function crossFromReplica(
  positions: readonly PositionRecord[],
  balances: readonly ReplicaBalance[],
  quotes: readonly Quote[],
): CrossView {
  return liveCross(positions, contractAvailable(balances), marksOf(quotes));
}

/**
 * The contract account a cross order's preview adds the order to (engine/trading/preview.ts): the same open
 * positions, free balance and marks the positions list is valued with, so the preview's liquidation price
 * is the one the list shows after the order. Undefined while an open position's pair has no quote yet.
 */
export function previewAccountFromReplica(
  positions: readonly PositionRecord[],
  balances: readonly ReplicaBalance[],
  quotes: readonly Quote[],
): PreviewAccount | undefined {
  const open = positions.filter((p) => p.status === 'open');
  if (!open.every((p) => quotes.some((q) => q.symbol === p.symbol))) return undefined;
  return { open: open.map(positionAtMark), available: contractAvailable(balances), markOf: marksOf(quotes) };
}

/** What /api/account/assets answers, from the replicated balances and positions and the quotes. */
export function assetsFromReplica(
  balances: readonly ReplicaBalance[],
  positions: readonly PositionRecord[],
  quotes: readonly Quote[],
): AssetsView {
  const open = positions.filter((p) => p.status === 'open').map(positionAtMark);
  return assetsView(balanceFigures(balances), unrealisedTotalAt(open, marksOf(quotes)), pricesOf(quotes));
}

/** A replicated profit log row (engine/finance/views.ts profitView). */
export interface ReplicaProfit {
  id: string;
  type: string;
  amount: string;
  ref: string;
}

/** What /api/user/invite answers, from the replicated profile, invitees and profit log. */
export function inviteFromReplica(
  profile: Pick<ReplicaProfile, 'inviteCode' | 'inviteShareRate'>,
  invitees: readonly InviteeRecord[],
  profits: readonly ReplicaProfit[],
): InviteView {
  const shares = profits
    .filter((p) => p.type === 'invite')
    .map((p) => ({ ref: p.ref, amount: micro(p.amount) }));
  return inviteSummary(profile.inviteCode, profile.inviteShareRate ?? '', invitees, shares);
}
