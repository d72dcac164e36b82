/**
 * Passkeys (WebAuthn credentials) and the challenges they answer. A passkey row keeps only the public key
 * (COSE, base64url) and the signature counter; the private key never leaves the member's authenticator.
 * A challenge is 256 random bits, good for one answer within `passkeyChallengeMs`, for one purpose
 * ('register', 'login', or a second-factor action), and bound to the origin it was asked from.
 */
import { defineTable } from '../store/port';

export interface PasskeyRow {
  /** The credential id (base64url), as authenticators present it. */
  id: string;
  memberId: string;
  /** COSE public key, base64url. */
  publicKey: string;
  counter: number;
  transports: string[];
  /** What the member calls it ("Phone", "Laptop"); defaults to the device it was made on. */
  name: string;
  /** 'singleDevice' or 'multiDevice' (synced, e.g. through a password manager). */
  deviceType: string;
  backedUp: boolean;
  createdAt: number;
  lastUsedAt: number | null;
}

export const memberPasskeys = defineTable<PasskeyRow>('passkeys', { member: (p) => p.memberId });

export type ChallengePurpose = 'register' | 'login' | 'withdraw' | 'transfer' | 'security' | 'addressBook';

export interface PasskeyChallengeRow {
  /** The challenge itself (base64url). */
  id: string;
  /** null for a passwordless login (the member is not known until the answer names its passkey). */
  memberId: string | null;
  purpose: ChallengePurpose;
  origin: string;
  rpId: string;
  expiresAt: number;
}

/** Expired challenges are deleted by the hourly sweep (accounts/sweep.ts). */
export const passkeyChallenges = defineTable<PasskeyChallengeRow>('passkeyChallenges');
