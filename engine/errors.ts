/**
 * Catalogue errors (SPEC.md §8, API.md). A handler throws `fail(code, msg)`; the router turns it into the
 * envelope `{ code, msg, data }` and drops the unit of work, so a failed call never writes anything (except
 * what the handler registered with ctx.onFailure, e.g. a wrong-key counter).
 */

export const Codes = {
  ok: 0,
  accountAbnormal: 400,
  unauthorized: 401,
  message: 402,
  denied: 403,
  notFound: 404,
  withdrawBelowMinimum: 410,
  /** Withdrawal or demo-chain address invalid for its network (format or checksum). */
  addressInvalid: 420,
  /** An address of the other network (TRC-20 vs ERC-20): funds sent across networks are lost. */
  addressOtherNetwork: 421,
  /**
   * An Idempotency-Key (a sync mutation id) already used for another call or body: the first call's answer
   * is not replayed for a different request, and nothing is applied; send the new request under a new key.
   */
  idempotencyKeyReused: 422,
  tooManyRequests: 429,
  keyLocked: 430,
  withdrawHold: 431,
  serverError: 500,
  /** The storage is unreachable for a moment (a database restart or failover): nothing was half written. */
  unavailable: 503,
  /**
   * Storage is full: the device's (IndexedDB QuotaExceededError), or on the live server its upload storage
   * (UPLOAD_STORAGE_MAX, docs/DEPLOY.md "Uploads"). The call was not saved, nothing changed.
   */
  storageFull: 507,
  withdrawSubmitted: 911,
  usernameTaken: 214,
  emailTaken: 215,
  phoneTaken: 216,
  transferSelf: 222,
  questionOrAnswerEmpty: 1998,
  inviteNotFound: 1999,
  usernameEmpty: 2001,
  usernameTooLong: 2002,
  usernameCharset: 2003,
  passwordEmpty: 2004,
  keyEmpty: 20041,
  passwordTooShort: 2005,
  keyTooShort: 20051,
  emailEmpty: 2006,
  emailFormat: 2007,
  phoneEmpty: 2008,
  phoneFormat: 2009,
  captchaEmpty: 2010,
  captchaWrong: 2013,
  credentialsWrong: 2016,
  accountNotFound: 3000,
  receiverAbnormal: 3001,
  receiverNotVip: 3002,
  dailyReceiveLimit: 3003,
  monthlyReceiveLimit: 3004,
  transferInsufficient: 3005,
  transferTooSmall: 3006,
  keyWrong: 3007,
  vipInsufficient: 3009,
  purchaseAmountMismatch: 3010,
  insufficientBalance: 4011,
  vipBelowCurrent: 4033,
  newUserRestricted: 4034,
  /** The position's notional is above what its risk tier allows at the chosen leverage (docs/TRADING.md). */
  riskTierLeverage: 4035,
  /**
   * The pair's index price is stale (too few venues updated lately, docs/TRADING.md "When prices are
   * stale"): no order can fill until prices are fresh again. `data: { symbol, since }` (Unix seconds of the
   * last fresh prices).
   */
  marketStale: 4036,
  /** The operators stopped new orders in this pair (the kill switch). `data: { symbol, since }`. */
  tradingHalted: 4037,
  /**
   * A take-profit price on the wrong side of the mark (a long's must be above it, a short's below), or not
   * above zero. `data: { markPrice }`.
   */
  takeProfitSide: 4038,
  /**
   * A stop-loss price on the wrong side of the mark (a long's must be below it, a short's above), or not
   * above zero. `data: { markPrice }`.
   */
  stopLossSide: 4039,

  // Member security (issue 27): two-factor authentication, passkeys, devices, the anti-phishing code.
  // 61xx is this block's range; requireSecondFactor (engine/twofactor/require.ts) answers 6101-6104.
  /** The member has two-factor authentication on: this call needs `code` (or `passkey`); data.methods. */
  secondFactorRequired: 6101,
  /** The authenticator or recovery code is wrong (counted); data.remaining tries before the lock. */
  secondFactorWrong: 6102,
  /** Too many wrong codes: authenticator codes refused until data.until (a recovery code still works). */
  secondFactorLocked: 6103,
  /** This authenticator code was already used (each code is accepted once): wait for the next one. */
  secondFactorReused: 6104,
  /** Two-factor authentication is already on (setup or enable called again). */
  twoFactorAlreadyOn: 6105,
  /** Two-factor authentication is off, or its setup was not started or has expired. */
  twoFactorNotOn: 6106,
  /** The passkey's answer did not verify (wrong origin, signature, or a credential of another account). */
  passkeyFailed: 6110,
  /** The passkey challenge is unknown, used or expired: ask for a new one. */
  passkeyChallengeExpired: 6111,
  /** No such passkey on this account (removed, or never registered). */
  passkeyUnknown: 6112,
  /** The account already has the most passkeys allowed (data.limit). */
  passkeyLimit: 6113,
  /** The anti-phishing code is empty, too long or has characters a message could not show plainly. */
  antiPhishingInvalid: 6120,

  // The address book and the money-out checks (issue 27 items 3 and 4): 6121-6140.
  /** An address book label is empty, longer than 40 characters, or has control characters (data.max). */
  addressLabelInvalid: 6121,
  /** This address is already saved for this network (data.id: the saved entry). */
  addressAlreadySaved: 6122,
  /** The address book has the most addresses allowed (data.limit). */
  addressBookFull: 6123,
  /** The member's own deposit address: never a withdrawal's destination nor a saved address. */
  ownDepositAddress: 6124,
  /** No such saved address on this account. */
  savedAddressUnknown: 6125,
  /** The whitelist is on and the address is not saved for this network (data.network). */
  addressNotWhitelisted: 6126,
  /** The whitelist is on and the saved address is still in its hold (data: { id, usableAt }). */
  addressOnHold: 6127,

  // Price alerts (issue 26 item 4): 6201-6220.
  /** A move alert's percentage is outside 0.1-50% or has more than two decimals, or a price is zero (data). */
  alertValueInvalid: 6201,
  /** The member has the most active alerts allowed (data.limit). */
  alertLimit: 6202,
  /** No such alert on this account. */
  alertUnknown: 6203,
  /** The price is already at or beyond the alert's price: it would fire at once (data.price: the price now). */
  alertAlreadyMet: 6204,
  /** The alert has already fired or been cancelled (data.status). */
  alertEnded: 6205,
  /** No such notice on this account (the notices' read state names one of the member's own). */
  noticeUnknown: 6206,
  // Proof of reserves (issue 27 item 7): 6141-6149.
  /** No proof-of-reserves snapshot has been published yet (data.next: when the first is due, Unix seconds). */
  reservesNoSnapshot: 6141,
  /** The member's account opened after the latest snapshot: it is in the next one (data.next). */
  reservesNotIncluded: 6142,
  /**
   * The snapshot is signed by a key the member's app does not recognise: not the key it pins for the
   * snapshot's time (docs/OPERATIONS.md "Signing key pinning"). The app's verdict on the device; no call
   * answers it.
   */
  reservesKeyUnknown: 6143,
} as const;

export type Code = (typeof Codes)[keyof typeof Codes] | number;

export class EngineError extends Error {
  readonly code: number;
  readonly data: unknown;

  constructor(code: number, msg: string, data: unknown = null) {
    super(msg);
    this.name = 'EngineError';
    this.code = code;
    this.data = data;
  }
}

/** `throw fail(3005, 'Insufficient balance')`: returns the error so TypeScript sees the throw. */
export function fail(code: number, msg: string, data: unknown = null): EngineError {
  return new EngineError(code, msg, data);
}

export function isEngineError(error: unknown): error is EngineError {
  return error instanceof EngineError;
}
