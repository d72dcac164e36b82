/**
 * How member-security facts read in the member's language (docs/SPEC.md §10): where a device connected from
 * (the kind of network and its /24 or /48, never a third-party lookup), a device's name, and a notice's
 * sentence. Shared by the devices screen and the notices shown as they arrive.
 */
import type { TFunction } from 'i18next';
import type { NoticeView, PlaceKind } from '../../engine/index';

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

/** A notice's sentence: its kind's text with its parameters (a new login's device and place). */
export function noticeText(notice: Pick<NoticeView, 'kind' | 'params'>, t: TFunction): string {
  const params: Record<string, string> = { ...notice.params };
  if (notice.kind === 'login.newDevice') {
    params.device = deviceText(notice.params.device, t);
    params.place = placeText(notice.params.place, notice.params.network, t);
  }
  return t(`security.notices.${notice.kind.replace('.', '_')}`, params);
}
