/**
 * Display helpers. Amounts arrive as decimal strings (API.md) and are formatted by string and bigint
 * arithmetic only (engine/money.ts), never through floating point.
 */
import { formatDecimal, pairScale, signOf, type DisplayRounding } from '../../engine/index';
import { priceDecimals } from './decimal';

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

/**
 * What a figure is, which decides its places (issue 26): `usdt` money 2 places cut toward zero (a balance never
 * shows a cent it does not hold); `price` the pair's tick, half-up; `quantity` the pair's step, cut toward zero;
 * `percent` 2 places; `rate` (funding) 4 places; `exact` every significant digit (at least 2 places).
 */
export type FigureKind = 'usdt' | 'price' | 'quantity' | 'percent' | 'rate' | 'exact';

export interface FigureSpec {
  kind?: FigureKind;
  /** The pair a price or quantity belongs to ("BTC/USDT"): its tick and step. */
  symbol?: string;
  /** Overrides the kind's places (e.g. a day's earnings, below a cent, at 6). */
  decimals?: number;
  /** "+" before a positive figure (PnL, changes). */
  sign?: boolean;
  /** Overrides the kind's cut: an estimate or a fee says `half-up` ("about"), not toward zero. */
  rounding?: DisplayRounding;
}

/** The places a figure of this kind shows; a price of an unknown pair keeps its own precision (2 to 6). */
export function figureDecimals(value: string, spec: FigureSpec): number | undefined {
  if (spec.decimals !== undefined) return spec.decimals;
  const scale = spec.symbol ? pairScale(spec.symbol) : undefined;
  switch (spec.kind ?? 'usdt') {
    case 'usdt':
    case 'percent':
      return 2;
    case 'price':
      return scale?.priceDecimals ?? priceDecimals(value);
    case 'quantity':
      return scale?.quantityDecimals ?? 4;
    case 'rate':
      return 4;
    case 'exact':
      return undefined;
  }
}

/** A figure as the amount component shows it, in the locale's separators (engine/money.ts formatDecimal). */
export function formatFigure(value: string, spec: FigureSpec, locale: string): string {
  const kind = spec.kind ?? 'usdt';
  const decimals = figureDecimals(value, spec);
  const rounding = spec.rounding ?? (kind === 'usdt' || kind === 'quantity' ? 'down' : 'half-up');
  const text = formatDecimal(value, { locale, decimals, rounding });
  return spec.sign && text !== '--' && signOf(value) > 0 ? `+${text}` : text;
}
