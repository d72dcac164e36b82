/**
 * What /api/user/getuser answers, computed on the device from the replicated profile and balances (the
 * engine's views in engine/sync/views.ts). The money figures come from the engine's own memberFigures
 * (engine/accounts/figures.ts), the function getuser uses, so they agree to the micro-unit.
 */
import { memberFigures, parseAmount, type MemberProfile, type Micro } from '../../engine/index';

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
