/**
 * A member's second factor and anti-phishing code, one row per member (id = member id), created on first use:
 * a member without one has two-factor authentication off and calls every route as before.
 *
 * The authenticator secret is stored sealed (box.ts, AES-256-GCM under a key outside the row); recovery codes
 * only as SHA-256 digests (recovery.ts: each has 80 random bits, so a fast hash is enough, as for session
 * tokens). `lastStep` is the last TOTP time step accepted: a code of that step or earlier is a replay.
 */
import { defineTable } from '../store/port';

export interface RecoveryCodeRow {
  hash: string;
  usedAt: number | null;
}

export interface MemberSecurityRow {
  id: string;
  memberId: string;
  /** The authenticator in force; null while two-factor authentication is off. */
  totp: { box: string; enabledAt: number; lastStep: number } | null;
  /** An authenticator being set up (shown as a QR code), until the member confirms it with a first code. */
  setup: { box: string; startedAt: number } | null;
  recovery: RecoveryCodeRow[];
  /** Wrong codes in a row, and the lock they lead to (6103), as the security key's keyFails/keyLockedUntil. */
  fails: number;
  lockedUntil: number | null;
  /** The member's anti-phishing code, shown in every message the service sends them; null when not set. */
  antiPhishing: string | null;
  updatedAt: number;
}

export const memberSecurity = defineTable<MemberSecurityRow>('memberSecurity');

export function emptySecurity(memberId: string, now: number): MemberSecurityRow {
  return {
    id: memberId,
    memberId,
    totp: null,
    setup: null,
    recovery: [],
    fails: 0,
    lockedUntil: null,
    antiPhishing: null,
    updatedAt: now,
  };
}
