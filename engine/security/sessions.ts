/**
 * Sessions. The token (256 random bits) is handed to the member once and stored only as its SHA-256, so a
 * leaked database does not leak live sessions. A session is valid while unexpired, unrevoked and presented
 * with the UserId it belongs to.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { members, type MemberRow } from '../accounts/tables';
import type { Ctx } from '../context';
import type { PlaceKind } from '../devices/network';
import type { LoginMethod } from '../devices/tables';
import { defineTable } from '../store/port';
import type { Tx } from '../store/tx';

export interface SessionRow {
  id: string;
  memberId: string;
  createdAt: number;
  expiresAt: number;
  revokedAt: number | null;
  /** Where it was opened (the member's device list); absent on sessions opened before devices were kept. */
  device?: string | null;
  place?: PlaceKind;
  network?: string | null;
  method?: LoginMethod;
}

/** What a new session records about the device that opened it. */
export interface SessionOrigin {
  device: string | null;
  place: PlaceKind;
  network: string | null;
  method: LoginMethod;
}

export const sessions = defineTable<SessionRow>('sessions', {
  member: (s) => (s.revokedAt === null ? s.memberId : null),
});

export function tokenDigest(token: string): string {
  return bytesToHex(sha256(utf8ToBytes(token)));
}

export async function openSession(
  ctx: Ctx,
  memberId: string,
  origin?: SessionOrigin,
): Promise<{ token: string; sessionId: string }> {
  const token = await ctx.secrets.token();
  const sessionId = tokenDigest(token);
  ctx.tx.put(sessions, {
    id: sessionId,
    memberId,
    createdAt: ctx.now,
    expiresAt: ctx.now + ctx.config.tokenTtlMs,
    revokedAt: null,
    ...origin,
  });
  return { token, sessionId };
}

export async function revokeSession(tx: Tx, sessionId: string, now: number): Promise<void> {
  const row = await tx.get(sessions, sessionId);
  if (row && row.revokedAt === null) tx.put(sessions, { ...row, revokedAt: now });
}

/** Revokes every live session of a member except `keep` (after a password change or reset). */
export async function revokeAll(tx: Tx, memberId: string, now: number, keep?: string): Promise<void> {
  for (const row of await tx.query(sessions, 'member', memberId)) {
    if (row.id !== keep) tx.put(sessions, { ...row, revokedAt: now });
  }
}

/** Resolves Authorization + UserId (lower-cased header names) to the member, or undefined. */
export async function authenticate(
  tx: Tx,
  headers: Readonly<Record<string, string>>,
  now: number,
): Promise<{ member: MemberRow; sessionId: string } | undefined> {
  const raw = headers['authorization']?.trim() ?? '';
  const token = raw.toLowerCase().startsWith('bearer ') ? raw.slice(7).trim() : raw;
  const userId = headers['userid']?.trim() ?? '';
  if (!token || !userId || token.length > 256) return undefined;
  // The session and the member it must belong to are read together (one round trip on SQL); the member
  // row counts only once the session is found to name it.
  const digest = tokenDigest(token);
  await tx.prefetch([
    [sessions, digest],
    [members, userId],
  ]);
  const session = await tx.get(sessions, digest);
  if (!session || session.revokedAt !== null || session.expiresAt <= now || session.memberId !== userId) {
    return undefined;
  }
  const member = await tx.get(members, session.memberId);
  // A member locked by an operator (status disabled) is refused even on a session opened before the lock.
  if (!member || member.status !== 'active') return undefined;
  return { member, sessionId: session.id };
}
