/**
 * The credit score (docs/RULES.md R3), 0-100, a pure function of what the engine knows about a member:
 * - 60 to start with;
 * - +10 once real-name verification has passed;
 * - +4 per VIP level in force (VIP6: +24);
 * - +1 per whole 30 days since registration, at most +6;
 * - -20 while the security key is locked after too many wrong tries.
 * Capped to 0-100. Nothing a member cannot see or change feeds it, so the score is explainable.
 */
import { effectiveVip, type MemberRow } from '../accounts/tables';

const MONTH_MS = 30 * 86_400_000;

export function creditScore(
  member: Pick<MemberRow, 'realNameStatus' | 'vip' | 'vipExpiresAt' | 'createdAt' | 'keyLockedUntil'>,
  now: number,
): number {
  let score = 60;
  if (member.realNameStatus === 'passed') score += 10;
  score += 4 * effectiveVip(member, now);
  score += Math.min(6, Math.max(0, Math.floor((now - member.createdAt) / MONTH_MS)));
  if (member.keyLockedUntil !== null && member.keyLockedUntil > now) score -= 20;
  return Math.max(0, Math.min(100, score));
}
