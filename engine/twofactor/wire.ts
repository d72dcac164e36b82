/**
 * Wire types of member security (issue 27: two-factor authentication, passkeys, devices and login history,
 * notices and the anti-phishing code), merged into ContractMap (engine/contract.ts). Times are Unix seconds.
 */
import type { ListParams, ListResult, UnixSeconds } from '../contract';
import type { PlaceKind } from '../devices/network';
import type { LoginMethod, NoticeKind } from '../devices/tables';
import type { PasskeyAnswer, PasskeyCreation } from '../passkeys/verify';
import type { SecondFactorAction } from './require';

export type { PasskeyAnswer, PasskeyCreation } from '../passkeys/verify';
export type { PlaceKind } from '../devices/network';
export type { LoginMethod, NoticeKind } from '../devices/tables';
export type { SecondFactorAction, SecondFactorMethod } from './require';

/** The optional second-factor fields of every gated call (requireSecondFactor). */
export type SecondFactorFields = {
  /** An authenticator code or a recovery code; required only once two-factor authentication is on. */
  code?: string;
  /** Instead of `code`: a passkey's answer to /api/security/passkey/challenge for this action. */
  passkey?: PasskeyAnswer;
};

export interface SecurityOverview {
  twoFactor: {
    on: boolean;
    enabledAt: UnixSeconds | null;
    /** Unused recovery codes. */
    recoveryLeft: number;
    /** Authenticator codes are refused until then (too many wrong codes); null when not locked. */
    lockedUntil: UnixSeconds | null;
  };
  passkeys: number;
  antiPhishing: string | null;
}

export interface TotpSetup {
  /** The authenticator key (base32), for members who type it instead of scanning the QR code. */
  secret: string;
  /** otpauth:// URI: the QR code's content. */
  uri: string;
  issuer: string;
  account: string;
  /** Confirm with a first code before then, or start again. */
  expiresAt: UnixSeconds;
}

export interface SessionView {
  /** A public handle of the session (not its token). */
  id: string;
  /** The session this call came from: "this device". */
  current: boolean;
  device: string | null;
  place: PlaceKind;
  network: string | null;
  method: LoginMethod;
  createdAt: UnixSeconds;
  expiresAt: UnixSeconds;
}

export interface LoginView {
  id: string;
  time: UnixSeconds;
  method: LoginMethod;
  device: string | null;
  place: PlaceKind;
  network: string | null;
  newDevice: boolean;
  secondFactor: string | null;
}

export interface NoticeView {
  id: string;
  kind: NoticeKind;
  params: Record<string, string>;
  /** The member's anti-phishing code when the notice was sent: a message without it is not from us. */
  antiPhishing: string | null;
  createdAt: UnixSeconds;
}

export interface PasskeyView {
  id: string;
  name: string;
  createdAt: UnixSeconds;
  lastUsedAt: UnixSeconds | null;
  /** Synced between the member's devices (a password manager's passkey) or bound to one authenticator. */
  synced: boolean;
}

/** WebAuthn's PublicKeyCredentialCreationOptionsJSON / RequestOptionsJSON, passed to the browser as they are. */
export type PasskeyCreationOptions = Record<string, unknown> & { challenge: string };
export type PasskeyRequestOptions = Record<string, unknown> & { challenge: string };

export interface SecurityContract {
  '/api/security/overview': { body: undefined; data: SecurityOverview };
  '/api/security/totp/setup': { body: { password: string }; data: TotpSetup };
  '/api/security/totp/enable': { body: { code: string }; data: { recoveryCodes: string[] } };
  '/api/security/totp/disable': { body: SecondFactorFields; data: null };
  '/api/security/recovery/renew': { body: SecondFactorFields; data: { recoveryCodes: string[] } };
  '/api/security/antiphishing': {
    body: SecondFactorFields & { phrase: string | null };
    data: { antiPhishing: string | null };
  };
  '/api/security/sessions': { body: undefined; data: { list: SessionView[] } };
  '/api/security/sessions/logout': { body: { id: string }; data: null };
  '/api/security/sessions/logoutOthers': { body: undefined; data: { ended: number } };
  '/api/security/logins': { body: ListParams; data: ListResult<LoginView> };
  '/api/security/notices': { body: ListParams; data: ListResult<NoticeView> };
  '/api/security/passkey/list': { body: undefined; data: { list: PasskeyView[] } };
  '/api/security/passkey/registerOptions': { body: SecondFactorFields; data: PasskeyCreationOptions };
  '/api/security/passkey/register': {
    body: { answer: PasskeyCreation; name?: string };
    data: PasskeyView;
  };
  '/api/security/passkey/remove': { body: SecondFactorFields & { id: string }; data: null };
  '/api/security/passkey/challenge': {
    body: { action: Exclude<SecondFactorAction, 'login'> };
    data: PasskeyRequestOptions;
  };
  '/api/security/passkey/loginOptions': { body: undefined; data: PasskeyRequestOptions };
  /** Answers exactly as /api/index/login: a JSON string of the member's LoginUser. */
  '/api/security/passkey/login': { body: { answer: PasskeyAnswer }; data: string };
}
