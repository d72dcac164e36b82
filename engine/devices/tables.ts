/**
 * Devices, login history and notices (issue 27 item 5).
 *
 * - knownDevices: the devices a member has logged in from, keyed by a digest of the app's device id (a random
 *   id the app keeps in its own storage and sends as `X-Device-Id`). A login from a device not in it is a
 *   login from a new device: two-factor authentication asks for a code, and the member is told on the feed.
 * - logins: the member's successful logins, newest first, at most `loginHistoryLimit` kept.
 * - notices: messages the service sends the member (synced to their devices and pushed on the feed), each
 *   with the anti-phishing code the member had set when it was sent.
 */
import { defineTable } from '../store/port';
import type { PlaceKind } from './network';

export interface KnownDeviceRow {
  /** `<memberId>:<device digest>` */
  id: string;
  memberId: string;
  device: string | null;
  firstSeenAt: number;
  lastSeenAt: number;
}

export const knownDevices = defineTable<KnownDeviceRow>('knownDevices', { member: (d) => d.memberId });

export type LoginMethod = 'password' | 'passkey';

export interface LoginRow {
  id: string;
  memberId: string;
  at: number;
  method: LoginMethod;
  device: string | null;
  place: PlaceKind;
  network: string | null;
  newDevice: boolean;
  /** How the second factor was given on a new device ('totp', 'recovery', 'passkey'), else null. */
  secondFactor: string | null;
  /** The session it opened (its token digest): "this device" in the sessions list. */
  sessionId: string;
}

export const logins = defineTable<LoginRow>('logins', { member: (l) => l.memberId });

export type NoticeKind =
  | 'login.newDevice'
  | 'twoFactor.on'
  | 'twoFactor.off'
  | 'twoFactor.recoveryRenewed'
  | 'twoFactor.locked'
  | 'passkey.added'
  | 'passkey.removed'
  | 'antiPhishing.set'
  | 'sessions.ended'
  // Money and markets (issue 26 item 4): the notification centre lists them beside the security notices.
  | 'alert.fired'
  | 'deposit.credited'
  | 'withdrawal.sent'
  | 'margin.warning'
  | 'funding.settled';

export interface NoticeRow {
  id: string;
  memberId: string;
  kind: NoticeKind;
  /** What the message names (a device, a place, a passkey's name, a count): plain strings. */
  params: Record<string, string>;
  /** The member's anti-phishing code when it was sent (null: none set then). */
  antiPhishing: string | null;
  createdAt: number;
}

export const notices = defineTable<NoticeRow>('notices', { member: (n) => n.memberId });
