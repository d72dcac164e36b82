/**
 * Passkeys (issue 27 item 2; API.md "Member security"): register (a security change: the second factor first
 * when two-factor authentication is on), list, remove, log in without a password, and answer a second-factor
 * challenge (a withdrawal confirmed with a passkey instead of an authenticator code).
 *
 * Passkeys are discoverable credentials with user verification required: the authenticator checks the member
 * (fingerprint, face, PIN), so a passkey login is two factors in one and asks for no code, on any device.
 */
import { base64urlnopad as base64url } from '@scure/base';
import { z } from 'zod';
import { loginAnswer } from '../accounts/session';
import { members } from '../accounts/tables';
import { toSeconds, type AuthCtx } from '../context';
import { clientOf } from '../devices/client';
import { completeLogin } from '../devices/history';
import { notify } from '../devices/notices';
import { Codes, fail } from '../errors';
import { handler } from '../router';
import type { Domain } from '../routes';
import { body, text } from '../schema';
import { requireSecondFactor, secondFactorShape } from '../twofactor/require';
import type { PasskeyCreationOptions, PasskeyRequestOptions, PasskeyView } from '../twofactor/wire';
import { memberPasskeys, type PasskeyRow } from './tables';
import {
  fromB64url,
  newChallenge,
  passkeyAnswer,
  passkeyCreation,
  takeChallenge,
  verifyAnswer,
  webauthn,
} from './verify';

const RP_NAME = 'Strata';

function view(row: PasskeyRow): PasskeyView {
  return {
    id: row.id,
    name: row.name,
    createdAt: toSeconds(row.createdAt),
    lastUsedAt: row.lastUsedAt === null ? null : toSeconds(row.lastUsedAt),
    synced: row.backedUp,
  };
}

async function passkeysOf(ctx: AuthCtx): Promise<PasskeyRow[]> {
  return (await ctx.tx.query(memberPasskeys, 'member', ctx.member.id)).sort(
    (a, b) => a.createdAt - b.createdAt,
  );
}

const actions = z.enum(['withdraw', 'transfer', 'security', 'addressBook']);

export const passkeysDomain: Domain = {
  name: 'passkeys',
  handlers: {
    '/api/security/passkey/list': handler({
      auth: true,
      run: async (ctx) => ({ list: (await passkeysOf(ctx)).map(view) }),
    }),

    '/api/security/passkey/registerOptions': handler({
      auth: true,
      body: body(secondFactorShape),
      run: async (ctx, input): Promise<PasskeyCreationOptions> => {
        const existing = await passkeysOf(ctx);
        if (existing.length >= ctx.config.passkeyLimit) {
          throw fail(Codes.passkeyLimit, 'This account has the most passkeys allowed: remove one first', {
            limit: ctx.config.passkeyLimit,
          });
        }
        await requireSecondFactor(ctx, ctx.member, 'security', input);
        const challenge = await newChallenge(ctx, ctx.member.id, 'register');
        const { generateRegistrationOptions } = await webauthn();
        const options = await generateRegistrationOptions({
          rpName: RP_NAME,
          rpID: challenge.rpId,
          userName: ctx.member.username,
          userID: new TextEncoder().encode(`strata-member:${ctx.member.id}`),
          challenge: fromB64url(challenge.id),
          attestationType: 'none',
          timeout: ctx.config.passkeyChallengeMs,
          excludeCredentials: existing.map((p) => ({ id: p.id, transports: p.transports })),
          authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
        });
        return options as unknown as PasskeyCreationOptions;
      },
    }),

    '/api/security/passkey/register': handler({
      auth: true,
      body: body({ answer: passkeyCreation, name: text(40).optional() }),
      run: async (ctx, input) => {
        const challenge = await takeChallenge(
          ctx,
          input.answer.response.clientDataJSON,
          'register',
          ctx.member.id,
        );
        const { verifyRegistrationResponse } = await webauthn();
        let info;
        try {
          const result = await verifyRegistrationResponse({
            response: input.answer as never,
            expectedChallenge: challenge.id,
            expectedOrigin: challenge.origin,
            expectedRPID: challenge.rpId,
            requireUserVerification: true,
          });
          info = result.verified ? result.registrationInfo : undefined;
        } catch {
          info = undefined;
        }
        if (!info) throw fail(Codes.passkeyFailed, 'The passkey could not be verified');
        if (await ctx.tx.get(memberPasskeys, info.credential.id)) {
          throw fail(Codes.passkeyFailed, 'This passkey is registered already');
        }
        const client = clientOf(ctx);
        const row: PasskeyRow = {
          id: info.credential.id,
          memberId: ctx.member.id,
          publicKey: base64url.encode(info.credential.publicKey),
          counter: info.credential.counter,
          transports: info.credential.transports ?? input.answer.response.transports ?? [],
          name: input.name?.trim() || client.device || 'Passkey',
          deviceType: info.credentialDeviceType,
          backedUp: info.credentialBackedUp,
          createdAt: ctx.now,
          lastUsedAt: null,
        };
        ctx.tx.put(memberPasskeys, row);
        await notify(ctx, ctx.member.id, 'passkey.added', { name: row.name });
        return view(row);
      },
    }),

    '/api/security/passkey/remove': handler({
      auth: true,
      body: body({ id: z.string().max(1024), ...secondFactorShape }),
      run: async (ctx, input) => {
        const row = await ctx.tx.get(memberPasskeys, input.id);
        if (!row || row.memberId !== ctx.member.id) {
          throw fail(Codes.passkeyUnknown, 'This passkey is not registered on this account');
        }
        await requireSecondFactor(ctx, ctx.member, 'security', input);
        ctx.tx.delete(memberPasskeys, row.id);
        await notify(ctx, ctx.member.id, 'passkey.removed', { name: row.name });
        return null;
      },
    }),

    '/api/security/passkey/challenge': handler({
      auth: true,
      body: body({ action: actions }),
      run: async (ctx, input): Promise<PasskeyRequestOptions> => {
        const mine = await passkeysOf(ctx);
        if (mine.length === 0) throw fail(Codes.passkeyUnknown, 'This account has no passkey');
        const challenge = await newChallenge(ctx, ctx.member.id, input.action);
        const { generateAuthenticationOptions } = await webauthn();
        const options = await generateAuthenticationOptions({
          rpID: challenge.rpId,
          challenge: fromB64url(challenge.id),
          allowCredentials: mine.map((p) => ({ id: p.id, transports: p.transports })),
          userVerification: 'required',
          timeout: ctx.config.passkeyChallengeMs,
        });
        return options as unknown as PasskeyRequestOptions;
      },
    }),

    '/api/security/passkey/loginOptions': handler({
      auth: false,
      run: async (ctx): Promise<PasskeyRequestOptions> => {
        const challenge = await newChallenge(ctx, null, 'login');
        const { generateAuthenticationOptions } = await webauthn();
        const options = await generateAuthenticationOptions({
          rpID: challenge.rpId,
          challenge: fromB64url(challenge.id),
          userVerification: 'required',
          timeout: ctx.config.passkeyChallengeMs,
        });
        return options as unknown as PasskeyRequestOptions;
      },
    }),

    '/api/security/passkey/login': handler({
      auth: false,
      body: body({ answer: passkeyAnswer }),
      run: async (ctx, input) => {
        const memberId = await verifyAnswer(ctx, input.answer, 'login', null);
        const member = await ctx.tx.get(members, memberId);
        if (!member) throw fail(Codes.passkeyUnknown, 'This passkey is not registered on this account');
        if (member.status !== 'active')
          throw fail(Codes.accountAbnormal, 'This account is abnormal: contact customer service');
        const token = await completeLogin(ctx, member, clientOf(ctx), 'passkey', undefined);
        return loginAnswer(ctx, member, token);
      },
    }),
  },
};
