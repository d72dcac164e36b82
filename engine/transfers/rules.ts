/**
 * Transfer rules (SPEC.md §5-§6, API.md; docs/RULES.md T1-T7) as pure functions. Receive limits count what
 * a member received in the current UTC day and UTC calendar month, by the recipient's level at the time of
 * the transfer.
 */
import type { EngineConfig } from '../config';
import { vipLevel } from '../config';
import { Codes, fail, type EngineError } from '../errors';
import type { Micro } from '../money';

export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export function utcMonth(ms: number): string {
  return new Date(ms).toISOString().slice(0, 7);
}

export function checkMinimum(config: EngineConfig, amount: Micro): EngineError | undefined {
  if (amount < config.minTransfer)
    return fail(Codes.transferTooSmall, 'The transfer amount is at least 1 USDT');
  return undefined;
}

/** 3002 when the level cannot receive; 3003 / 3004 when the day's or month's total would pass the limit. */
export function checkReceiveLimits(
  config: EngineConfig,
  level: number,
  receivedToday: Micro,
  receivedThisMonth: Micro,
  amount: Micro,
): EngineError | undefined {
  const limits = vipLevel(config, level);
  if (!limits || limits.dailyReceive === null || limits.monthlyReceive === null || level < 1) {
    return fail(Codes.receiverNotVip, 'The other party has not activated VIP');
  }
  if (receivedToday + amount > limits.dailyReceive) {
    return fail(Codes.dailyReceiveLimit, "The amount exceeds the other party's daily receive limit");
  }
  if (receivedThisMonth + amount > limits.monthlyReceive) {
    return fail(Codes.monthlyReceiveLimit, "The amount exceeds the other party's monthly receive limit");
  }
  return undefined;
}
