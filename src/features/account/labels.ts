/** Display labels shared by the account screens. */
import type { TFunction } from 'i18next';
import { statusLabel } from '../../lib/status';

/** 'vip2' -> 'VIP2'; the wire keeps the lower-case form (SPEC.md §3). */
export function vipLabel(vip: string): string {
  return vip.replace(/^vip/i, 'VIP');
}

export function realNameLabel(status: string, t: TFunction): string {
  return status === 'none' ? t('account.certNone') : statusLabel(status, t);
}
