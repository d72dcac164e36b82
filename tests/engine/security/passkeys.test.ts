/**
 * Passkeys (docs/RULES.md A31-A33), verified by the engine with @simplewebauthn/server against a software
 * authenticator: register, log in without a password, confirm a withdrawal instead of the authenticator code,
 * and each passkey error code.
 */
import { describe, expect, it } from 'vitest';
import type { BodyOf, SecondFactorFields } from '../../../engine/contract';
import { fund, harness, register, type Harness, type Session } from '../harness';
import { SoftAuthenticator } from './authenticator';
import { enableTwoFactor, loginFrom, memberOn, nextCode, PHONE } from './kit';

const ORIGIN = 'https://app.strata.test';
const TRC = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
/** A withdrawal of 20 USDT over TRC-20 with the security key: what a passkey (or code) must confirm. */
const WITHDRAWAL: BodyOf<'/api/withdraw/submit'> = {
  currency: 'USDT',
  network: 'TRC20',
  address: TRC,
  amount: '20',
  key: 'key1',
};

async function setup(): Promise<{ h: Harness; s: Session; key: SoftAuthenticator }> {
  const h = await harness({ config: { passkeyOrigins: [ORIGIN] } });
  const s = await memberOn(h, 'alice', { id: PHONE });
  return { h, s, key: new SoftAuthenticator(ORIGIN) };
}

async function addPasskey(h: Harness, s: Session, key: SoftAuthenticator, extra: SecondFactorFields = {}) {
  const options = await h.call('/api/security/passkey/registerOptions', extra, s);
  if (options.code !== 0) return options;
  const answer = await key.create(options.data);
  return h.call('/api/security/passkey/register', { answer, name: 'Phone' }, s);
}

describe('passkeys', () => {
  it('A31 registers a passkey (user verification required) and logs in with it without a password', async () => {
    const { h, s, key } = await setup();
    const options = (await h.call('/api/security/passkey/registerOptions', {}, s)).data;
    expect(options).toMatchObject({
      rp: { name: 'Strata', id: 'app.strata.test' },
      user: { name: 'alice' },
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });
    const added = await h.call(
      '/api/security/passkey/register',
      { answer: await key.create(options), name: 'Phone' },
      s,
    );
    expect(added).toMatchObject({ code: 0, data: { name: 'Phone', lastUsedAt: null } });
    expect((await h.call('/api/security/passkey/list', undefined, s)).data.list).toHaveLength(1);

    const login = await h.call('/api/security/passkey/loginOptions');
    expect(login.code).toBe(0);
    const signedIn = await h.call('/api/security/passkey/login', {
      answer: await key.get(login.data),
    });
    expect(signedIn.code).toBe(0);
    const user = JSON.parse(signedIn.data) as { id: string; token: string; username: string };
    expect(user.username).toBe('alice');
    const session = {
      id: user.id,
      token: user.token,
      headers: { Authorization: user.token, UserId: user.id },
    };
    expect((await h.call('/api/user/getuser', undefined, session)).code).toBe(0);
    const history = (await h.call('/api/security/logins', {}, s)).data;
    expect(history.list[0]?.method).toBe('passkey');
  });

  it('A32 each challenge answers once, for its purpose, before it expires (6111); another site cannot answer (6110)', async () => {
    const { h, s, key } = await setup();
    expect((await addPasskey(h, s, key)).code).toBe(0);
    const options = (await h.call('/api/security/passkey/loginOptions')).data;
    const answer = await key.get(options);
    expect((await h.call('/api/security/passkey/login', { answer })).code).toBe(0);
    expect((await h.call('/api/security/passkey/login', { answer })).code).toBe(6111);
    // A challenge asked for a withdrawal does not log in.
    const forWithdraw = (await h.call('/api/security/passkey/challenge', { action: 'withdraw' }, s)).data;
    expect((await h.call('/api/security/passkey/login', { answer: await key.get(forWithdraw) })).code).toBe(
      6111,
    );
    const late = (await h.call('/api/security/passkey/loginOptions')).data;
    h.clock.advance(5 * 60_000);
    expect((await h.call('/api/security/passkey/login', { answer: await key.get(late) })).code).toBe(6111);
    const phished = (await h.call('/api/security/passkey/loginOptions')).data;
    const elsewhere = await key.get(phished, 'https://strata-login.example');
    expect((await h.call('/api/security/passkey/login', { answer: elsewhere })).code).toBe(6110);
    // The failed answer spent its challenge too.
    expect((await h.call('/api/security/passkey/login', { answer: elsewhere })).code).toBe(6111);
  });

  it('A33 a withdrawal is confirmed with a passkey instead of the authenticator code', async () => {
    const { h, s, key } = await setup();
    await fund(h, s.id, '100');
    const { secret } = await enableTwoFactor(h, s);
    // Adding a passkey is a security change: the code first.
    expect((await addPasskey(h, s, key)).code).toBe(6101);
    expect((await addPasskey(h, s, key, { code: await nextCode(h, secret) })).code).toBe(0);
    const body = WITHDRAWAL;
    const asked = await h.call('/api/withdraw/submit', body, s);
    expect(asked).toMatchObject({ code: 6101, data: { methods: ['totp', 'recovery', 'passkey'] } });
    const options = (await h.call('/api/security/passkey/challenge', { action: 'withdraw' }, s)).data;
    expect(options.allowCredentials).toHaveLength(1);
    const answer = await key.get(options);
    expect((await h.call('/api/withdraw/submit', { ...body, passkey: answer }, s)).code).toBe(911);
    expect((await h.call('/api/withdraw/submit', { ...body, passkey: answer }, s)).code).toBe(6111);
    // A challenge for a transfer does not confirm a withdrawal.
    const forTransfer = (await h.call('/api/security/passkey/challenge', { action: 'transfer' }, s)).data;
    expect(
      (await h.call('/api/withdraw/submit', { ...body, passkey: await key.get(forTransfer) }, s)).code,
    ).toBe(6111);
  });

  it("A31 another member's passkey, a removed one, and the limit (6112, 6113)", async () => {
    const h = await harness({ config: { passkeyOrigins: [ORIGIN], passkeyLimit: 1 } });
    const alice = await memberOn(h, 'alice', { id: PHONE });
    await register(h, 'bob');
    const bob = (await loginFrom(h, 'bob', { id: 'bob-device-id-00001' })).session as Session;
    const key = new SoftAuthenticator(ORIGIN);
    expect((await addPasskey(h, alice, key)).code).toBe(0);
    expect((await h.call('/api/security/passkey/registerOptions', {}, alice)).code).toBe(6113);
    expect((await h.call('/api/security/passkey/challenge', { action: 'withdraw' }, bob)).code).toBe(6112);
    const bobKey = new SoftAuthenticator(ORIGIN);
    expect((await addPasskey(h, bob, bobKey)).code).toBe(0);
    // Bob's challenge answered with Alice's passkey.
    const forBob = (await h.call('/api/security/passkey/challenge', { action: 'withdraw' }, bob)).data;
    const body = WITHDRAWAL;
    await fund(h, bob.id, '50');
    const bobSecret = (await enableTwoFactor(h, bob)).secret;
    expect(
      (await h.call('/api/withdraw/submit', { ...body, passkey: await key.get(forBob) }, bob)).code,
    ).toBe(6112);
    const [listed] = (await h.call('/api/security/passkey/list', undefined, alice)).data.list;
    if (!listed) throw new Error('alice has no passkey');
    const passkeyId = listed.id;
    expect((await h.call('/api/security/passkey/remove', { id: 'nope' }, alice)).code).toBe(6112);
    expect((await h.call('/api/security/passkey/remove', { id: passkeyId }, bob)).code).toBe(6112);
    expect((await h.call('/api/security/passkey/remove', { id: passkeyId }, alice)).code).toBe(0);
    const options = (await h.call('/api/security/passkey/loginOptions')).data;
    expect((await h.call('/api/security/passkey/login', { answer: await key.get(options) })).code).toBe(6112);
    expect(bobSecret).toBeTruthy();
  });

  it('A31 no passkeys where no origin is allowed (6110)', async () => {
    const h = await harness();
    expect((await h.call('/api/security/passkey/loginOptions')).code).toBe(6110);
  });
});
