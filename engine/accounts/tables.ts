/** The member record. Secrets are stored only as PBKDF2 hashes (security/hashing.ts); times are ms. */
import { defineTable } from '../store/port';

export type RealNameStatus = 'none' | 'under review' | 'passed' | 'rejected';

export interface MemberRow {
  id: string;
  username: string;
  /** Lower-cased: usernames are unique regardless of case. */
  usernameKey: string;
  email: string | null;
  emailKey: string | null;
  phone: string | null;
  phoneKey: string | null;
  passwordHash: string;
  keyHash: string;
  question: string;
  answerHash: string;
  vip: number;
  vipExpiresAt: number | null;
  inviteCode: string;
  invitedBy: string | null;
  createdAt: number;
  creditScore: number;
  realNameStatus: RealNameStatus;
  status: 'active' | 'disabled';
  keyFails: number;
  keyLockedUntil: number | null;
  withdrawHoldUntil: number | null;
}

export const members = defineTable<MemberRow>('members', {
  username: (m) => m.usernameKey,
  email: (m) => m.emailKey,
  phone: (m) => m.phoneKey,
  invite: (m) => m.inviteCode,
});

export function vipName(level: number): string {
  return `vip${level}`;
}

/** The level in force at `now`: a VIP1 trial past its expiry counts as vip0 even before its job ran. */
export function effectiveVip(member: Pick<MemberRow, 'vip' | 'vipExpiresAt'>, now: number): number {
  if (member.vipExpiresAt !== null && member.vipExpiresAt <= now) return 0;
  return member.vip;
}
