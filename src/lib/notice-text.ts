/**
 * How member-security facts read in the member's language (docs/SPEC.md §10): where a device connected from
 * (the kind of network and its /24 or /48, never a third-party lookup), a device's name, and a notice's
 * sentence. Shared by the devices screen and the notices shown as they arrive.
 */
import type { TFunction } from 'i18next';
import type { NoticeView, PlaceKind } from '../../engine/index';
import { formatFigure } from './format';

const PLACE_KEYS: Record<PlaceKind, string> = {
  internet: 'security.devices.placeInternet',
  private: 'security.devices.placePrivate',
  loopback: 'security.devices.placeLoopback',
  device: 'security.devices.placeDevice',
  unknown: 'security.devices.placeUnknown',
};

export function placeText(
  place: string | undefined,
  network: string | null | undefined,
  t: TFunction,
): string {
  const key = PLACE_KEYS[(place ?? 'unknown') as PlaceKind] ?? PLACE_KEYS.unknown;
  // A network kind without its address (an old row) reads as an unknown place rather than "Network ".
  if ((place === 'internet' || place === 'private') && !network) return t(PLACE_KEYS.unknown);
  return t(key, { network: network ?? '' });
}

export function deviceText(device: string | null | undefined, t: TFunction): string {
  return device || t('security.devices.unknownDevice');
}

/** The sentence of a notice of the notification centre (alerts, funds, trading), figures in `locale`. */
function moneyNoticeText(
  notice: Pick<NoticeView, 'kind' | 'params'>,
  t: TFunction,
  locale: string,
): string | null {
  const p = notice.params;
  const figure = (value: string | undefined) =>
    value ? formatFigure(value, { kind: 'price', symbol: p.symbol }, locale) : '';
  const usdt = (value: string | undefined) => (value ? formatFigure(value, { kind: 'exact' }, locale) : '');
  switch (notice.kind) {
    case 'alert.fired':
      return t(
        `notifications.text.alert_${p.kind === 'move' ? 'move' : p.kind === 'below' ? 'below' : 'above'}`,
        {
          symbol: p.symbol,
          price: figure(p.price),
          target: figure(p.target),
          percent: p.percent ? formatFigure(p.percent, { kind: 'exact' }, locale) : '',
        },
      );
    case 'deposit.credited':
      return t('notifications.text.deposit', { amount: usdt(p.amount), network: networkName(p.network) });
    case 'withdrawal.sent':
      return t('notifications.text.withdrawal', { amount: usdt(p.amount), network: networkName(p.network) });
    case 'margin.warning':
      return t(
        p.account === 'cross' ? 'notifications.text.marginCross' : 'notifications.text.marginIsolated',
        {
          symbol: p.symbol,
          ratio: p.ratio,
        },
      );
    case 'funding.settled': {
      const received = (p.amount ?? '').startsWith('-');
      return t(received ? 'notifications.text.fundingReceived' : 'notifications.text.fundingPaid', {
        amount: usdt(received ? p.amount?.slice(1) : p.amount),
        count: p.positions,
      });
    }
    default:
      return null;
  }
}

function networkName(network: string | undefined): string {
  return network === 'ERC20' ? 'ERC-20' : network === 'TRC20' ? 'TRC-20' : (network ?? '');
}

/** A notice's sentence: its kind's text with its parameters (a new login's device and place). */
export function noticeText(
  notice: Pick<NoticeView, 'kind' | 'params'>,
  t: TFunction,
  locale = 'en-US',
): string {
  const money = moneyNoticeText(notice, t, locale);
  if (money !== null) return money;
  const params: Record<string, string> = { ...notice.params };
  if (notice.kind === 'login.newDevice') {
    params.device = deviceText(notice.params.device, t);
    params.place = placeText(notice.params.place, notice.params.network, t);
  }
  return t(`security.notices.${notice.kind.replace('.', '_')}`, params);
}
