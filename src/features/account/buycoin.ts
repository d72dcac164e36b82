/** Quick buy's wire shapes (engine/buycoin/handlers.ts) and its amount rule, exact in micro-USDT. */
import type { BuycoinQuote, DataOf } from '../../../engine/index';
import { parseAmountText as toMicro } from '../../../engine/index';

export type { BuycoinQuote };

export type BuycoinResult = DataOf<'/api/buycoin/buy'>;

/** The desk's currencies; the member's language suggests the first choice. */
export const CURRENCIES = [
  'USD',
  'EUR',
  'GBP',
  'JPY',
  'KRW',
  'CNY',
  'HKD',
  'VND',
  'RUB',
  'TRY',
  'IDR',
  'BRL',
  'THB',
  'PLN',
  'CZK',
  'UAH',
  'IRR',
  'SAR',
] as const;

const BY_LOCALE: Record<string, string> = {
  'zh-CN': 'CNY',
  'zh-HK': 'HKD',
  'ja-JP': 'JPY',
  'ko-KR': 'KRW',
  'vi-VN': 'VND',
  'ru-RU': 'RUB',
  'tr-TR': 'TRY',
  'id-ID': 'IDR',
  'pt-BR': 'BRL',
  'th-TH': 'THB',
  'pl-PL': 'PLN',
  'cs-CZ': 'CZK',
  'uk-UA': 'UAH',
  'fa-IR': 'IRR',
  'ar-SA': 'SAR',
  'fr-FR': 'EUR',
  'de-DE': 'EUR',
  'es-ES': 'EUR',
  'it-IT': 'EUR',
};

export function currencyFor(locale: string): string {
  return BY_LOCALE[locale] ?? 'USD';
}

export const MIN_BUY = '10';
export const MAX_BUY = '50000';

/** A translation key for the first rule the amount breaks, or undefined. */
export function buyAmountRule(text: string): string | undefined {
  if (!text.trim()) return 'buycoin.amountRequired';
  const value = toMicro(text);
  if (value === null || value === 0n) return 'buycoin.amountInvalid';
  const min = toMicro(MIN_BUY);
  const max = toMicro(MAX_BUY);
  if ((min !== null && value < min) || (max !== null && value > max)) return 'buycoin.amountRange';
  return undefined;
}
