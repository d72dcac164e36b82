/**
 * Display helpers. Amounts arrive as decimal strings (API.md) and are formatted by string and bigint
 * arithmetic only (engine/money.ts), never through floating point.
 */

/** SPEC.md §9: a ten-digit timestamp is in seconds, a thirteen-digit one in milliseconds. */
export function toMillis(timestamp: number | string): number {
  const n = typeof timestamp === 'string' ? Number(timestamp.trim()) : timestamp;
  if (!Number.isFinite(n)) return Number.NaN;
  const digits = String(Math.trunc(Math.abs(n))).length;
  return digits <= 10 ? n * 1000 : n;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Formats in local time. Tokens: YYYY MM DD HH mm ss. Invalid input gives an empty string. */
export function formatTime(timestamp: number | string, pattern = 'YYYY-MM-DD HH:mm:ss'): string {
  const ms = toMillis(timestamp);
  if (Number.isNaN(ms)) return '';
  const d = new Date(ms);
  if (Number.isNaN(d.getTime())) return '';
  const tokens: Record<string, string> = {
    YYYY: pad(d.getFullYear(), 4),
    MM: pad(d.getMonth() + 1),
    DD: pad(d.getDate()),
    HH: pad(d.getHours()),
    mm: pad(d.getMinutes()),
    ss: pad(d.getSeconds()),
  };
  return pattern.replace(/YYYY|MM|DD|HH|mm|ss/g, (token) => tokens[token] ?? token);
}

/**
 * Amounts and figures are formatted by the engine's money module (engine/money.ts), never a copy:
 * `formatAmount(v)` is exact (a member's 50.125 shows as 50.125, padded to 2 places); `formatAmount(v,
 * { decimals })` rounds a market figure to a chosen precision.
 */
export {
  formatDecimal as formatAmount,
  roundDecimal,
  separatorsFor,
  type DisplayOptions as AmountOptions,
} from '../../engine/index';
