import { describe, expect, it } from 'vitest';
import { harness, login, signUp, user } from '../../tests/engine/harness';

describe('credentials (docs/RULES.md A7-A9)', () => {
  it('A9 editPsw needs the old password, then signs out the other sessions', async () => {
    const h = await harness();
    const alice = await signUp(h, 'alice');
    const phone = await login(h, 'alice');
    const body = { oldPassword: 'wrong1', password: 'newpass1', repassword: 'newpass1' };
    expect((await h.call('/api/user/editPsw', body, alice)).code).toBe(402);
    expect((await h.call('/api/user/editPsw', { ...body, oldPassword: '' }, alice)).code).toBe(2004);
    expect(
      (
        await h.call(
          '/api/user/editPsw',
          { ...body, oldPassword: 'secret1', password: 'abc', repassword: 'abc' },
          alice,
        )
      ).code,
    ).toBe(2005);
    expect(
      (await h.call('/api/user/editPsw', { ...body, oldPassword: 'secret1', repassword: 'newpass2' }, alice))
        .code,
    ).toBe(402);
    expect((await h.call('/api/user/editPsw', { ...body, oldPassword: 'secret1' }, alice)).code).toBe(0);
    expect((await h.call('/api/user/getuser', undefined, alice)).code).toBe(0);
    expect((await h.call('/api/user/getuser', undefined, phone)).code).toBe(401);
    expect((await h.call('/api/index/login', { username: 'alice', password: 'secret1' })).code).toBe(2016);
    await login(h, 'alice', 'newpass1');
  });

  it('A7 edituserPsw changes the key with the old key (3007 when wrong) and holds nothing', async () => {
    const h = await harness();
    const alice = await signUp(h, 'alice');
    expect(
      (await h.call('/api/user/edituserPsw', { oldKey: 'nope', key: 'key2', rekey: 'key2' }, alice)).code,
    ).toBe(3007);
    expect(
      (await h.call('/api/user/edituserPsw', { oldKey: 'key1', key: 'k2', rekey: 'k2' }, alice)).code,
    ).toBe(20051);
    expect((await h.call('/api/user/edituserPsw', { oldKey: 'key1', key: '', rekey: '' }, alice)).code).toBe(
      20041,
    );
    expect(
      (await h.call('/api/user/edituserPsw', { oldKey: 'key1', key: 'key2', rekey: 'key2' }, alice)).code,
    ).toBe(0);
    expect(
      (await h.call('/api/user/edituserPsw', { oldKey: 'key1', key: 'key3', rekey: 'key3' }, alice)).code,
    ).toBe(3007);
    const snapshot = await h.engine.diagnostics.snapshot();
    expect(snapshot['members']).toMatchObject([{ withdrawHoldUntil: null, keyFails: 1 }]);
  });

  it('A7 five wrong keys lock key-gated actions with 430 until 24 hours pass', async () => {
    const h = await harness();
    const alice = await signUp(h, 'alice');
    const change = (oldKey: string) =>
      h.call('/api/user/edituserPsw', { oldKey, key: 'key9', rekey: 'key9' }, alice);
    for (let i = 0; i < 4; i++) expect((await change('bad')).code).toBe(3007);
    const fifth = await change('bad');
    expect(fifth.code).toBe(430);
    expect(fifth.data).toEqual({ until: Math.floor(h.clock.now() / 1000) + 86_400 });
    expect((await change('key1')).code).toBe(430);
    h.clock.advance(86_400_000);
    expect((await change('key1')).code).toBe(0);
  });

  it('A7 forgetKey clears the 430 lock; A8 and holds withdrawals for 24 hours', async () => {
    const h = await harness();
    const alice = await signUp(h, 'alice');
    for (let i = 0; i < 5; i++)
      await h.call('/api/user/edituserPsw', { oldKey: 'bad', key: 'key9', rekey: 'key9' }, alice);
    const reset = { username: 'alice', password: 'secret1', answer: ' rex ', key: 'key5', rekey: 'key5' };
    expect((await h.call('/api/index/forgetKey', { ...reset, password: 'wrong1' })).code).toBe(2016);
    expect((await h.call('/api/index/forgetKey', { ...reset, answer: 'Tom' })).code).toBe(402);
    expect((await h.call('/api/index/forgetKey', { ...reset, answer: '' })).code).toBe(1998);
    expect((await h.call('/api/index/forgetKey', { ...reset, username: 'ghost' })).code).toBe(3000);
    expect((await h.call('/api/index/forgetKey', reset)).code).toBe(0);
    const again = await login(h, 'alice');
    expect((await h.call('/api/user/getuser', undefined, alice)).code).toBe(401);
    expect(
      (await h.call('/api/user/edituserPsw', { oldKey: 'key5', key: 'key6', rekey: 'key6' }, again)).code,
    ).toBe(0);
    const m = (await h.engine.diagnostics.snapshot())['members'] as Array<Record<string, unknown>>;
    expect(m[0]).toMatchObject({ keyLockedUntil: null, withdrawHoldUntil: h.clock.now() + 86_400_000 });
  });

  it('A8 forget resets the password with the secret answer and holds withdrawals for 24 hours', async () => {
    const h = await harness();
    await signUp(h, 'alice');
    expect((await h.call('/api/index/question', { username: 'alice' })).data).toEqual({
      question: 'First pet?',
    });
    expect((await h.call('/api/index/question', { username: 'nobody' })).code).toBe(3000);
    const form = { username: 'alice', answer: 'REX', password: 'fresh12', repassword: 'fresh12' };
    expect((await h.call('/api/index/forget', { ...form, answer: 'cat' })).code).toBe(402);
    expect((await h.call('/api/index/forget', { ...form, repassword: 'fresh13' })).code).toBe(402);
    expect((await h.call('/api/index/forget', form)).code).toBe(0);
    const s = await login(h, 'alice', 'fresh12');
    expect(await user(h, s)).toMatchObject({ username: 'alice' });
    const m = (await h.engine.diagnostics.snapshot())['members'] as Array<Record<string, unknown>>;
    expect(m[0]).toMatchObject({ withdrawHoldUntil: h.clock.now() + 86_400_000 });
  });

  it('A5 wrong old passwords in editPsw count toward the per-account limit (429)', async () => {
    const h = await harness();
    const alice = await signUp(h, 'alice');
    const body = { oldPassword: 'wrong1', password: 'newpass1', repassword: 'newpass1' };
    for (let i = 0; i < 10; i++) expect((await h.call('/api/user/editPsw', body, alice)).code).toBe(402);
    expect((await h.call('/api/user/editPsw', { ...body, oldPassword: 'secret1' }, alice)).code).toBe(429);
  });

  it('A5 wrong secret answers count toward the per-account limit (429)', async () => {
    const h = await harness();
    await signUp(h, 'alice');
    const form = { username: 'alice', answer: 'cat', password: 'fresh12', repassword: 'fresh12' };
    for (let i = 0; i < 10; i++) expect((await h.call('/api/index/forget', form)).code).toBe(402);
    expect((await h.call('/api/index/forget', { ...form, answer: 'rex' })).code).toBe(429);
  });
});
