/**
 * WebAuthn ceremonies through @simplewebauthn/server, which runs on WebCrypto alone, so the same verification
 * runs in the demo's Web Worker and on the live server. The library is loaded on first use (a dynamic
 * import): engines that never see a passkey never load it.
 */
import { base64urlnopad as base64url } from '@scure/base';
import { z } from 'zod';
import type { Ctx } from '../context';
import { PAGE_ORIGIN_HEADER } from '../devices/client';
import { Codes, fail } from '../errors';
import { memberPasskeys, passkeyChallenges, type ChallengePurpose, type PasskeyChallengeRow } from './tables';

const b64url = z
  .string()
  .max(4096)
  .regex(/^[A-Za-z0-9_-]*$/, 'must be base64url');
const extensions = z.record(z.string(), z.unknown());

/** A passkey's answer to an authentication challenge (AuthenticationResponseJSON). */
export const passkeyAnswer = z.object({
  id: b64url,
  rawId: b64url,
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: b64url,
    authenticatorData: b64url,
    signature: b64url,
    userHandle: b64url.optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: extensions,
});

/** A new passkey's answer to a registration challenge (RegistrationResponseJSON). */
export const passkeyCreation = z.object({
  id: b64url,
  rawId: b64url,
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: b64url,
    attestationObject: b64url.max(16_384),
    authenticatorData: b64url.optional(),
    transports: z.array(z.string().max(32)).max(8).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: b64url.optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: extensions,
});

export type PasskeyAnswer = z.infer<typeof passkeyAnswer>;
export type PasskeyCreation = z.infer<typeof passkeyCreation>;

export const webauthn = () => import('@simplewebauthn/server');

/** base64url -> bytes on an ArrayBuffer of their own (what WebCrypto-typed APIs take). */
export function fromB64url(text: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(base64url.decode(text));
}

/**
 * The origin a ceremony runs for: the request's Origin when it is allowed (config.passkeyOrigins, or the
 * server's own pages), else the only allowed origin (the demo's worker, whose requests carry none). No allowed
 * origin: no passkeys.
 */
export function ceremonyOrigin(ctx: Ctx): { origin: string; rpId: string } {
  const own = ctx.headers[PAGE_ORIGIN_HEADER];
  const allowed = own ? [...ctx.config.passkeyOrigins, own] : ctx.config.passkeyOrigins;
  const asked = ctx.headers['origin']?.trim();
  const origin = asked && allowed.includes(asked) ? asked : allowed.length === 1 ? allowed[0] : undefined;
  if (!origin) throw fail(Codes.passkeyFailed, 'Passkeys are not available from this address');
  return { origin, rpId: new URL(origin).hostname };
}

export async function newChallenge(
  ctx: Ctx,
  memberId: string | null,
  purpose: ChallengePurpose,
): Promise<PasskeyChallengeRow> {
  const { origin, rpId } = ceremonyOrigin(ctx);
  const row: PasskeyChallengeRow = {
    id: base64url.encode(await ctx.secrets.bytes(32, 'passkey-challenge')),
    memberId,
    purpose,
    origin,
    rpId,
    expiresAt: ctx.now + ctx.config.passkeyChallengeMs,
  };
  ctx.tx.put(passkeyChallenges, row);
  return row;
}

/** The challenge an answer signed, read from its client data (the library checks it again). */
function challengeOf(clientDataJSON: string): string | null {
  try {
    const data = JSON.parse(new TextDecoder().decode(base64url.decode(clientDataJSON))) as unknown;
    const challenge = (data as { challenge?: unknown } | null)?.challenge;
    return typeof challenge === 'string' ? challenge : null;
  } catch {
    return null;
  }
}

/**
 * Takes the answer's challenge: it must exist, be unexpired and be for this purpose (and member, when one is
 * named). It is spent whatever the outcome, even when the call fails: a challenge is answered once.
 */
export async function takeChallenge(
  ctx: Ctx,
  clientDataJSON: string,
  purpose: ChallengePurpose,
  memberId: string | null,
): Promise<PasskeyChallengeRow> {
  const id = challengeOf(clientDataJSON);
  const row = id ? await ctx.tx.get(passkeyChallenges, id) : undefined;
  if (!row || row.expiresAt <= ctx.now || row.purpose !== purpose || row.memberId !== memberId) {
    throw fail(Codes.passkeyChallengeExpired, 'This passkey request has expired: try again');
  }
  ctx.tx.delete(passkeyChallenges, row.id);
  ctx.onFailure(async (after) => after.tx.delete(passkeyChallenges, row.id));
  return row;
}

/**
 * Verifies a passkey's answer to a challenge of `purpose` and records the use; answers the passkey's owner.
 * `memberId` null: a passwordless login, where the passkey names the member.
 */
export async function verifyAnswer(
  ctx: Ctx,
  answer: PasskeyAnswer,
  purpose: ChallengePurpose,
  memberId: string | null,
): Promise<string> {
  const challenge = await takeChallenge(ctx, answer.response.clientDataJSON, purpose, memberId);
  const passkey = await ctx.tx.get(memberPasskeys, answer.id);
  if (!passkey || (memberId !== null && passkey.memberId !== memberId)) {
    throw fail(Codes.passkeyUnknown, 'This passkey is not registered on this account');
  }
  const { verifyAuthenticationResponse } = await webauthn();
  let verified: boolean;
  let newCounter = passkey.counter;
  try {
    const result = await verifyAuthenticationResponse({
      response: answer,
      expectedChallenge: challenge.id,
      expectedOrigin: challenge.origin,
      expectedRPID: challenge.rpId,
      credential: {
        id: passkey.id,
        publicKey: fromB64url(passkey.publicKey),
        counter: passkey.counter,
        transports: passkey.transports as never,
      },
      requireUserVerification: true,
    });
    verified = result.verified;
    newCounter = result.authenticationInfo.newCounter;
  } catch {
    verified = false;
  }
  if (!verified) throw fail(Codes.passkeyFailed, 'The passkey could not be verified');
  ctx.tx.put(memberPasskeys, { ...passkey, counter: newCounter, lastUsedAt: ctx.now });
  return passkey.memberId;
}

/** requireSecondFactor's passkey branch: an answer to a challenge asked for this action by this member. */
export async function verifyPasskeyFor(
  ctx: Ctx,
  memberId: string,
  action: ChallengePurpose,
  answer: PasskeyAnswer,
): Promise<void> {
  await verifyAnswer(ctx, answer, action, memberId);
}
