/**
 * Two-factor authentication (docs/RULES.md A20-A26): enrolment, the gate on logins from new devices,
 * withdrawals, transfers and security changes, each code accepted once, the lock, recovery codes, and how
 * secrets are stored. Every error code of the gate is reached here.
 */
import { generate } from 'otplib';
import { describe, expect, it } from 'vitest';
import type { BodyOf } from '../../../engine/contract';
import { login, register, signUp } from '../harness';
import {
  codeNow,
  enableTwoFactor,
  LAPTOP,
  loginFrom,
  memberOn,
  nextCode,
  PHONE,
  securityHarness,
} from './kit';

const TRC = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const withdrawal = (extra: Partial<BodyOf<'/api/withdraw/submit'>> = {}): BodyOf<'/api/withdraw/submit'> => ({
  currency: 'USDT',
  network: 'TRC20',
  address: TRC,
  amount: '20',
  key: 'key1',
  ...extra,
});

describe('two-factor enrolment', () => {
  it('A20 setup needs the login password; enable needs a first right code and answers recovery codes once', async () => {
    const { h } = await securityHarness();
    const s = await memberOn(h, 'alice');
    expect((await h.call('/api/security/totp/setup', { password: '' }, s)).code).toBe(2004);
    expect((await h.call('/api/security/totp/setup', { password: 'wrong1' }, s)).code).toBe(402);
    expect((await h.call('/api/security/totp/enable', { code: '123456' }, s)).code).toBe(6106);
    const setup = await h.call('/api/security/totp/setup', { password: 'secret1' }, s);
    expect(setup.code).toBe(0);
    const data = setup.data;
    expect(data.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(data.uri).toMatch(/^otpauth:\/\/totp\/Strata:alice\?/);
    expect(data.uri).toContain(`secret=${data.secret}`);
    expect((await h.call('/api/security/totp/enable', { code: '' }, s)).code).toBe(6101);
    const wrong = String((Number(await codeNow(h, data.secret)) + 1) % 1_000_000).padStart(6, '0');
    expect((await h.call('/api/security/totp/enable', { code: wrong }, s)).code).toBe(6102);
    const on = await h.call('/api/security/totp/enable', { code: await codeNow(h, data.secret) }, s);
    expect(on.code).toBe(0);
    const codes = on.data.recoveryCodes;
    expect(codes).toHaveLength(10);
    for (const c of codes) expect(c).toMatch(/^[0-9a-hjkmnp-tv-z]{4}(-[0-9a-hjkmnp-tv-z]{4}){3}$/);
    expect(new Set(codes).size).toBe(10);
    expect((await h.call('/api/security/totp/setup', { password: 'secret1' }, s)).code).toBe(6105);
    expect((await h.call('/api/security/totp/enable', { code: '000000' }, s)).code).toBe(6105);
    const overview = (await h.call('/api/security/overview', undefined, s)).data;
    expect(overview).toMatchObject({ twoFactor: { on: true, recoveryLeft: 10, lockedUntil: null } });
  });

  it('A20 an unconfirmed setup expires after 15 minutes', async () => {
    const { h } = await securityHarness();
    const s = await memberOn(h, 'bob');
    const { secret } = (await h.call('/api/security/totp/setup', { password: 'secret1' }, s)).data;
    h.clock.advance(15 * 60_000);
    expect((await h.call('/api/security/totp/enable', { code: await codeNow(h, secret) }, s)).code).toBe(
      6106,
    );
  });

  it('A20 codes are checked against real time: the demo fast-forward moves the simulated clock, not the phone', async () => {
    const { h } = await securityHarness();
    const phoneNow = h.clock.now();
    Object.assign(h.clock, { wall: () => phoneNow });
    h.clock.advance(25 * 3_600_000); // the demo's fast-forwards: 1 hour, then 1 day
    const s = await memberOn(h, 'dora');
    const { secret } = (await h.call('/api/security/totp/setup', { password: 'secret1' }, s)).data;
    const phone = await generate({ secret, epoch: Math.floor(phoneNow / 1000) });
    expect((await h.call('/api/security/totp/enable', { code: await codeNow(h, secret) }, s)).code).toBe(
      6102,
    );
    expect((await h.call('/api/security/totp/enable', { code: phone }, s)).code).toBe(0);
  });

  it('A26 the authenticator key is stored sealed and recovery codes only as digests', async () => {
    const { h } = await securityHarness();
    const s = await memberOn(h, 'carol');
    const { secret, recovery } = await enableTwoFactor(h, s);
    const stored = JSON.stringify(await h.engine.diagnostics.snapshot());
    expect(stored).not.toContain(secret);
    for (const code of recovery) {
      expect(stored).not.toContain(code);
      expect(stored).not.toContain(code.replace(/-/g, ''));
    }
  });
});

describe('the second-factor gate', () => {
  it('A21 a member without two-factor calls every route as before (optional fields ignored)', async () => {
    const { h, fund } = await securityHarness();
    const s = await memberOn(h, 'dave');
    await fund(s, '100');
    expect((await loginFrom(h, 'dave', { id: LAPTOP })).code).toBe(0);
    expect((await h.call('/api/withdraw/submit', withdrawal(), s)).code).toBe(911);
    expect((await h.call('/api/withdraw/submit', withdrawal({ code: '000000' }), s)).code).toBe(911);
  });

  it('A22 a login from a new device asks for the code; a known device does not', async () => {
    const { h } = await securityHarness();
    const s = await memberOn(h, 'erin');
    const { secret } = await enableTwoFactor(h, s);
    expect((await loginFrom(h, 'erin', { id: PHONE })).code).toBe(0);
    const asked = await loginFrom(h, 'erin', { id: LAPTOP });
    expect(asked).toMatchObject({ code: 6101, data: { action: 'login', methods: ['totp', 'recovery'] } });
    // A wrong password is still the password's answer, whatever the code.
    expect((await loginFrom(h, 'erin', { id: LAPTOP }, { password: 'nope12' })).code).toBe(2016);
    const good = await loginFrom(h, 'erin', { id: LAPTOP }, { code: await nextCode(h, secret) });
    expect(good.code).toBe(0);
    // Now known: no code the next time.
    expect((await loginFrom(h, 'erin', { id: LAPTOP })).code).toBe(0);
    // A call without a device id is always a new device.
    expect((await h.call('/api/index/login', { username: 'erin', password: 'secret1' })).code).toBe(6101);
  });

  it('A23 each code is accepted once, whatever the action (6104)', async () => {
    const { h, fund } = await securityHarness();
    const s = await memberOn(h, 'fay');
    await fund(s, '100');
    const { secret } = await enableTwoFactor(h, s);
    const code = await nextCode(h, secret);
    expect((await h.call('/api/withdraw/submit', withdrawal({ code }), s)).code).toBe(911);
    expect((await h.call('/api/withdraw/submit', withdrawal({ code }), s)).code).toBe(6104);
    expect((await loginFrom(h, 'fay', { id: LAPTOP }, { code })).code).toBe(6104);
    expect(
      (await h.call('/api/withdraw/submit', withdrawal({ code: await nextCode(h, secret) }), s)).code,
    ).toBe(911);
  });

  it('A24 withdrawals, transfers and security changes need the code once two-factor is on', async () => {
    const { h, fund } = await securityHarness();
    const s = await memberOn(h, 'gus');
    await fund(s, '500');
    const vipOwner = await signUp(h, 'hana');
    await fund(vipOwner, '100');
    expect((await h.call('/api/Viplist/Buyvip', { level: 1, key: 'key1' }, vipOwner)).code).toBe(0);
    const { secret } = await enableTwoFactor(h, s);
    expect((await h.call('/api/withdraw/submit', withdrawal(), s)).code).toBe(6101);
    // The key is still checked first: a wrong key answers its own code and the second factor is not reached.
    expect((await h.call('/api/withdraw/submit', withdrawal({ key: 'bad1' }), s)).code).toBe(3007);
    expect((await h.call('/api/transfer/submit', { account: 'hana', amount: '5' }, s)).code).toBe(6101);
    const sent = await h.call(
      '/api/transfer/submit',
      { account: 'hana', amount: '5', code: await nextCode(h, secret) },
      s,
    );
    expect(sent.code).toBe(0);
    const psw = { oldPassword: 'secret1', password: 'secret2', repassword: 'secret2' };
    expect((await h.call('/api/user/editPsw', psw, s)).code).toBe(6101);
    expect((await h.call('/api/user/editPsw', { ...psw, code: await nextCode(h, secret) }, s)).code).toBe(0);
    const key = { oldKey: 'key1', key: 'key2', rekey: 'key2' };
    expect((await h.call('/api/user/edituserPsw', key, s)).code).toBe(6101);
    expect((await h.call('/api/user/edituserPsw', { ...key, code: await nextCode(h, secret) }, s)).code).toBe(
      0,
    );
    const reset = { username: 'gus', password: 'secret2', answer: 'Rex', key: 'key3', rekey: 'key3' };
    expect((await h.call('/api/index/forgetKey', reset)).code).toBe(6101);
    expect((await h.call('/api/index/forgetKey', { ...reset, code: await nextCode(h, secret) })).code).toBe(
      0,
    );
    const forget = { username: 'gus', answer: 'Rex', password: 'secret3', repassword: 'secret3' };
    expect((await h.call('/api/index/forget', forget)).code).toBe(6101);
    expect((await h.call('/api/index/forget', { ...forget, code: await nextCode(h, secret) })).code).toBe(0);
  });

  it('A25 five wrong codes lock authenticator codes (6103) until the lock ends; a recovery code still works, once', async () => {
    const { h, fund } = await securityHarness();
    const s = await memberOn(h, 'ivy');
    await fund(s, '500');
    const { secret, recovery } = await enableTwoFactor(h, s);
    for (let remaining = 4; remaining >= 1; remaining--) {
      expect(await h.call('/api/withdraw/submit', withdrawal({ code: '000000' }), s)).toMatchObject({
        code: 6102,
        data: { remaining },
      });
    }
    const locked = await h.call('/api/withdraw/submit', withdrawal({ code: '000000' }), s);
    expect(locked).toMatchObject({ code: 6103, data: { until: Math.floor(h.clock.now() / 1000) + 86_400 } });
    // Even the right authenticator code is refused while locked.
    expect(
      (await h.call('/api/withdraw/submit', withdrawal({ code: await nextCode(h, secret) }), s)).code,
    ).toBe(6103);
    expect((await h.call('/api/security/overview', undefined, s)).data).toMatchObject({
      twoFactor: { lockedUntil: expect.any(Number) },
    });
    const code = recovery[0] ?? '';
    // Typed in capitals without the dashes, a recovery code is the same code; it clears the lock.
    const typed = code.replace(/-/g, '').toUpperCase();
    expect((await h.call('/api/withdraw/submit', withdrawal({ code: typed }), s)).code).toBe(911);
    expect((await h.call('/api/withdraw/submit', withdrawal({ code }), s)).code).toBe(6102);
    expect(
      (await h.call('/api/withdraw/submit', withdrawal({ code: await nextCode(h, secret) }), s)).code,
    ).toBe(911);
    expect((await h.call('/api/security/overview', undefined, s)).data).toMatchObject({
      twoFactor: { recoveryLeft: 9, lockedUntil: null },
    });
  });

  it('A25 the lock ends after 24 hours', async () => {
    const { h } = await securityHarness();
    const s = await memberOn(h, 'jack');
    const { secret } = await enableTwoFactor(h, s);
    for (let i = 0; i < 5; i++) await loginFrom(h, 'jack', { id: LAPTOP }, { code: '999999' });
    expect((await loginFrom(h, 'jack', { id: LAPTOP }, { code: await nextCode(h, secret) })).code).toBe(6103);
    h.clock.advance(86_400_000);
    expect((await loginFrom(h, 'jack', { id: LAPTOP }, { code: await codeNow(h, secret) })).code).toBe(0);
  });

  it('A20 disable and renew need the second factor; renewed codes replace the old ones', async () => {
    const { h, fund } = await securityHarness();
    const s = await memberOn(h, 'kim');
    await fund(s, '100');
    const { secret, recovery } = await enableTwoFactor(h, s);
    expect((await h.call('/api/security/recovery/renew', {}, s)).code).toBe(6101);
    const renewed = await h.call('/api/security/recovery/renew', { code: await nextCode(h, secret) }, s);
    expect(renewed.code).toBe(0);
    const fresh = renewed.data.recoveryCodes;
    expect(fresh.some((c) => recovery.includes(c))).toBe(false);
    expect((await h.call('/api/security/totp/disable', { code: recovery[1] }, s)).code).toBe(6102);
    expect((await h.call('/api/security/totp/disable', {}, s)).code).toBe(6101);
    expect((await h.call('/api/security/totp/disable', { code: fresh[0] }, s)).code).toBe(0);
    expect((await h.call('/api/security/totp/disable', {}, s)).code).toBe(6106);
    expect((await h.call('/api/security/recovery/renew', {}, s)).code).toBe(6106);
    expect((await h.call('/api/withdraw/submit', withdrawal(), s)).code).toBe(911);
  });

  it('a member registered and logged in through the plain harness keeps working (no device id)', async () => {
    const { h } = await securityHarness();
    await register(h, 'leo');
    expect((await login(h, 'leo')).token).toMatch(/^[0-9a-f]{64}$/);
  });
});
