/**
 * The security key gate (docs/RULES.md A5-A7). Key-gated actions (withdrawals, VIP and product purchases)
 * call `requireKey` before touching money:
 * - locked after 5 wrong keys: 430 with data.until, until forgetKey or 24 h;
 * - `withdrawal: true` and a recent password/key reset: 431 with data.until;
 * - wrong key: 3007 (the failure is counted even though the call rolls back); the 5th answers 430.
 * A right key clears the failure count.
 */
import { members, type MemberRow } from '../accounts/tables';
import { Codes, fail } from '../errors';
import { toSeconds, type Ctx } from '../context';

export async function requireKey(
  ctx: Ctx,
  member: MemberRow,
  key: unknown,
  options: { withdrawal?: boolean } = {},
): Promise<void> {
  if (member.keyLockedUntil !== null && member.keyLockedUntil > ctx.now) {
    throw fail(Codes.keyLocked, 'Security key entered wrongly too many times: reset it to continue', {
      until: toSeconds(member.keyLockedUntil),
    });
  }
  if (options.withdrawal && member.withdrawHoldUntil !== null && member.withdrawHoldUntil > ctx.now) {
    throw fail(Codes.withdrawHold, 'Withdrawals are paused for 24 hours after a password or key reset', {
      until: toSeconds(member.withdrawHoldUntil),
    });
  }
  if (typeof key !== 'string' || key.length === 0) throw fail(Codes.keyEmpty, 'Security key is required');
  if (await ctx.hashing.verify(key, member.keyHash)) {
    if (member.keyFails !== 0 || member.keyLockedUntil !== null) {
      const fresh = (await ctx.tx.get(members, member.id)) ?? member;
      ctx.tx.put(members, { ...fresh, keyFails: 0, keyLockedUntil: null });
    }
    return;
  }
  const fails = member.keyFails + 1;
  const locked = fails >= ctx.config.keyFailLimit;
  const lockedUntil = locked ? ctx.now + ctx.config.keyLockMs : null;
  ctx.onFailure(async (after) => {
    const row = await after.tx.get(members, member.id);
    if (row) after.tx.put(members, { ...row, keyFails: locked ? 0 : fails, keyLockedUntil: lockedUntil });
  });
  if (lockedUntil !== null) {
    throw fail(Codes.keyLocked, 'Security key entered wrongly too many times: reset it to continue', {
      until: toSeconds(lockedUntil),
    });
  }
  throw fail(Codes.keyWrong, 'Security key is wrong', { remaining: ctx.config.keyFailLimit - fails });
}
