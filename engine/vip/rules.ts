/**
 * VIP purchase rules (API.md business constants; docs/RULES.md V1-V6) as pure functions.
 * - VIP1 is a trial: a fee paid to the platform, not refundable, valid `vipTrialMs` (60 days).
 * - VIP2-6 hold the level's deposit frozen on the member's cash; an upgrade freezes only the difference
 *   between the new level's deposit and what is already held. A VIP1 trial fee is not counted toward it.
 * - Buying the current level or a lower one answers 4033.
 */
import type { EngineConfig } from '../config';
import { vipLevel } from '../config';
import { Codes, fail, type EngineError } from '../errors';
import type { Micro } from '../money';

export const VIP_EXPIRED_MESSAGE =
  'Your VIP1 trial has expired: upgrade to VIP2 or above to keep VIP benefits';

export type Purchase = { kind: 'trial'; fee: Micro } | { kind: 'deposit'; hold: Micro; deposit: Micro };

export function planPurchase(
  config: EngineConfig,
  current: number,
  held: Micro,
  target: number,
): Purchase | EngineError {
  const level = vipLevel(config, target);
  if (!level || target < 1) return fail(400, `There is no VIP level ${target}`);
  if (target < current)
    return fail(Codes.vipBelowCurrent, 'Your current level is higher than the level purchased');
  if (target === current) return fail(Codes.vipBelowCurrent, 'You already hold this level');
  if (target === 1) return { kind: 'trial', fee: level.deposit };
  const diff = level.deposit - held;
  return { kind: 'deposit', hold: diff > 0n ? diff : 0n, deposit: level.deposit };
}

/** Refunds release the whole deposit; only deposit levels (VIP2+) have one (3009 below). */
export function checkRefund(current: number, requested: number): EngineError | undefined {
  if (current < 2) return fail(Codes.vipInsufficient, 'Only VIP2 and above hold a refundable deposit');
  if (requested !== current)
    return fail(Codes.message, `Your current level is VIP${current}, not VIP${requested}`);
  return undefined;
}
