/**
 * Amount text as the member types it: a decimal with at most 6 places (API.md), compared as exact
 * micro-USDT by the engine's own parser (engine/money.ts parseAmountText), never through floating point
 * and never by a copy of the rule. `toMicro` is that parser under its old name, kept so the trade forms
 * (edited in parallel) need not change their imports; new code imports parseAmountText from engine/index.
 */
import { parseAmountText } from '../../../engine/index';

export { parseAmountText as toMicro };

/** Keeps what could still become a valid amount: digits and one dot, at most 6 decimals. */
export function cleanAmount(text: string): string {
  const normalised = text.replace(/,/g, '.').replace(/[^\d.]/g, '');
  const [whole = '', ...rest] = normalised.split('.');
  if (rest.length === 0) return whole;
  return `${whole}.${rest.join('').slice(0, 6)}`;
}

export type AmountReason = 'required' | 'invalidAmount' | 'belowMinimum' | 'overAvailable';

/** The first rule an amount breaks, or null: present, a positive decimal, >= minimum, <= available. */
export function checkAmount(text: string, minimum: string, available?: string): AmountReason | null {
  if (text.trim() === '') return 'required';
  const value = parseAmountText(text);
  if (value === null || value === 0n) return 'invalidAmount';
  const floor = parseAmountText(minimum);
  if (floor !== null && value < floor) return 'belowMinimum';
  const ceiling = available === undefined ? null : parseAmountText(available);
  if (ceiling !== null && value > ceiling) return 'overAvailable';
  return null;
}
