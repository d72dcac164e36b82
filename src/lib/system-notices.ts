/**
 * System notifications (issue 26 item 4): while Strata is in the background (the page hidden), a notice
 * arriving on the feed (API.md "Real-time feed": `notice`) is shown by the service worker
 * (ServiceWorkerRegistration.showNotification), once the member turned them on in the notification centre.
 * Permission is asked only from that button, never on load. A click opens the centre
 * (public/sw-notifications.js, imported by the generated service worker).
 */
import i18next from 'i18next';
import type { NoticeView } from '../../engine/index';
import { userStore } from '../state/user-store';
import { noticeText } from './notice-text';
import { noticeGroup } from './notifications';
import { PATHS } from './paths';

export type Permission = NotificationPermission | 'unsupported';

function supported(): boolean {
  return (
    typeof Notification !== 'undefined' && typeof navigator !== 'undefined' && 'serviceWorker' in navigator
  );
}

export function notificationPermission(): Permission {
  return supported() ? Notification.permission : 'unsupported';
}

/** Asks the browser (from a member's press only). */
export async function requestNotifications(): Promise<Permission> {
  if (!supported()) return 'unsupported';
  try {
    return await Notification.requestPermission();
  } catch {
    return Notification.permission;
  }
}

/** The title and body of a notice as the system shows it. */
export function systemNotice(notice: NoticeView): { title: string; body: string } {
  const t = i18next.t.bind(i18next);
  const group = noticeGroup(notice.kind);
  const title =
    group === 'security'
      ? t('notifications.kinds.security')
      : t(`notifications.kinds.${notice.kind.replace('.', '_')}`);
  return { title, body: noticeText(notice, t, i18next.language) };
}

/** Shows `notice` through the service worker when the page is hidden and the member allowed it. */
export async function showInBackground(notice: NoticeView): Promise<boolean> {
  if (notificationPermission() !== 'granted' || document.visibilityState !== 'hidden') return false;
  const registration = await navigator.serviceWorker.getRegistration();
  if (!registration) return false;
  const { title, body } = systemNotice(notice);
  await registration.showNotification(title, {
    body,
    tag: `notice-${notice.id}`,
    icon: '/pwa-192x192.png',
    data: { url: PATHS.userNotifications },
  });
  return true;
}

/** Follows the feed's notices for the signed-in member; answers the function that stops. */
export function startSystemNotices(): () => void {
  let stop: (() => void) | undefined;
  let stopped = false;
  void import('./feed')
    .then(({ loadFeed }) => loadFeed())
    .then(({ feedActor }) => {
      if (stopped) return;
      const subscription = feedActor().on('message', (event) => {
        const message = event.message;
        if (message.type !== 'notice') return;
        const data = message.data;
        if (!data.notice || data.memberId !== userStore.get()?.id) return;
        void showInBackground(data.notice).catch(() => undefined);
      });
      stop = () => subscription.unsubscribe();
    });
  return () => {
    stopped = true;
    stop?.();
  };
}
