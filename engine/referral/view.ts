/**
 * What /api/user/invite answers, as pure functions of the records: the engine's handler (from its tables)
 * and the device (from the replicated `invitees`, `profitLog` and profile rows, src/features/account/
 * InvitePage.tsx) use the same code, so both agree to the micro-unit. Imports only the money module.
 */
import { toSeconds } from '../context';
import { formatAmount, type Micro } from '../money';

/** A direct invitee as their inviter sees them (the replicated `invitees` row). */
export interface InviteeRecord {
  id: string;
  /** Masked: "al***23". */
  username: string;
  vip: string;
  joinedAt: number;
}

export interface InviteeView extends InviteeRecord {
  /** What this invitee's trading fees earned the inviter. */
  earnings: string;
}

export interface InviteView {
  inviteCode: string;
  /** Share of the platform's fee on each direct invitee trade, percent. */
  shareRate: string;
  downline: InviteeView[];
  earnings: string;
}

/** One referral share (an `invite` entry of the profit log): `ref` is the invitee who traded. */
export interface ReferralShare {
  ref: string;
  amount: Micro;
}

/** "alice123" -> "al***23": the downline list shows who joined without exposing full usernames. */
export function maskUsername(name: string): string {
  if (name.length <= 4) return `${name.slice(0, 1)}***`;
  return `${name.slice(0, 2)}***${name.slice(-2)}`;
}

/** Basis points as a percent with two decimals: 2000 -> "20.00". */
export function shareRate(bps: number): string {
  return `${Math.floor(bps / 100)}.${String(bps % 100).padStart(2, '0')}`;
}

export function inviteeView(m: {
  id: string;
  username: string;
  vip: number;
  createdAt: number;
}): InviteeRecord {
  return {
    id: m.id,
    username: maskUsername(m.username),
    vip: `vip${m.vip}`,
    joinedAt: toSeconds(m.createdAt),
  };
}

/** Newest invitee first (by joining time, then by id). */
function newestJoined(a: InviteeRecord, b: InviteeRecord): number {
  return b.joinedAt - a.joinedAt || Number(b.id) - Number(a.id) || (b.id < a.id ? -1 : b.id > a.id ? 1 : 0);
}

/**
 * The invitation summary: each direct invitee with what they earned the inviter, newest first, and the
 * total of every referral share (shares of members no longer listed still count in the total).
 */
export function inviteSummary(
  inviteCode: string,
  rate: string,
  invitees: readonly InviteeRecord[],
  shares: Iterable<ReferralShare>,
): InviteView {
  const byInvitee = new Map<string, Micro>();
  let total = 0n;
  for (const s of shares) {
    byInvitee.set(s.ref, (byInvitee.get(s.ref) ?? 0n) + s.amount);
    total += s.amount;
  }
  return {
    inviteCode,
    shareRate: rate,
    downline: [...invitees].sort(newestJoined).map((m) => ({
      ...m,
      earnings: formatAmount(byInvitee.get(m.id) ?? 0n),
    })),
    earnings: formatAmount(total),
  };
}
