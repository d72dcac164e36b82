/**
 * Amount text as the member types it: a decimal with at most 6 places (API.md), compared as exact
 * micro-USDT by the engine's own parser (engine/money.ts parseAmountText, imported from engine/index.ts),
 * never through floating point and never by a copy of the rule.
 */
import { parseAmountText } from '../../engine/index';

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
