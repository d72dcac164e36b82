import { describe, expect, it } from 'vitest';
import { harness, login, signUp, user, type Session } from '../../tests/engine/harness';

describe('sessions and login (docs/RULES.md A5, A6)', () => {
  it('A6 login answers a JSON string with a 256-bit token; getuser answers the profile', async () => {
    const h = await harness();
    await signUp(h, 'alice');
    const r = await h.call('/api/index/login', { username: 'ALICE', password: 'secret1' });
    expect(r.code).toBe(0);
    expect(typeof r.data).toBe('string');
    const u = JSON.parse(r.data) as Record<string, unknown>;
    expect(u).toEqual({
      id: '100001',
      token: expect.stringMatching(/^[0-9a-f]{64}$/),
      username: 'alice',
      vip: 'vip0',
      balance: '0',
    });
    const s: Session = {
      id: '100001',
      token: u['token'] as string,
      headers: { authorization: u['token'] as string, userid: '100001' },
    };
    expect(await user(h, s)).toMatchObject({
      id: '100001',
      username: 'alice',
      email: 'alice@example.com',
      vip: 'vip0',
      balance: '0',
      available: '0',
      frozen: '0',
      totalAssets: '0',
      realNameStatus: 'none',
      createdAt: Math.floor(h.clock.now() / 1000),
    });
    expect(JSON.stringify(await user(h, s))).not.toMatch(/Hash|pbkdf2/);
  });

  it('A6 login also accepts the e-mail or phone', async () => {
    const h = await harness();
    await signUp(h, 'alice', { phone: '+15550100' });
    expect(
      (await h.call('/api/index/login', { username: 'alice@example.com', password: 'secret1' })).code,
    ).toBe(0);
    expect((await h.call('/api/index/login', { username: '+15550100', password: 'secret1' })).code).toBe(0);
  });

  it('A6 a missing, wrong, foreign or expired token answers 401; headers are case-insensitive', async () => {
    const h = await harness();
    const alice = await signUp(h, 'alice');
    const bob = await signUp(h, 'bob');
    expect((await h.call('/api/user/getuser')).code).toBe(401);
    expect(
      (
        await h.call('/api/user/getuser', undefined, {
          ...alice,
          headers: { Authorization: 'nope', UserId: alice.id },
        })
      ).code,
    ).toBe(401);
    expect(
      (
        await h.call('/api/user/getuser', undefined, {
          ...alice,
          headers: { AUTHORIZATION: alice.token, userID: bob.id },
        })
      ).code,
    ).toBe(401);
    expect(
      (
        await h.call('/api/user/getuser', undefined, {
          ...alice,
          headers: { AUTHORIZATION: alice.token, userID: alice.id },
        })
      ).code,
    ).toBe(0);
    expect(
      (
        await h.call('/api/user/getuser', undefined, {
          ...alice,
          headers: { Authorization: `Bearer ${alice.token}`, UserId: alice.id },
        })
      ).code,
    ).toBe(0);
    h.clock.advance(7 * 86_400_000);
    expect((await h.call('/api/user/getuser', undefined, alice)).code).toBe(401);
  });

  it('A6 logout revokes the token', async () => {
    const h = await harness();
    const alice = await signUp(h, 'alice');
    const other = await login(h, 'alice');
    expect((await h.call('/api/index/logout', undefined, alice)).data).toBeNull();
    expect((await h.call('/api/user/getuser', undefined, alice)).code).toBe(401);
    expect((await h.call('/api/index/logout', undefined, alice)).code).toBe(401);
    expect((await h.call('/api/user/getuser', undefined, other)).code).toBe(0);
  });

  it('A5 wrong credentials answer 2016 whether the account exists or not', async () => {
    const h = await harness();
    await signUp(h, 'alice');
    expect((await h.call('/api/index/login', { username: 'alice', password: 'wrong1' })).code).toBe(2016);
    expect((await h.call('/api/index/login', { username: 'nobody', password: 'wrong1' })).code).toBe(2016);
    expect((await h.call('/api/index/login', { username: '', password: 'x' })).code).toBe(2001);
    expect((await h.call('/api/index/login', { username: 'alice', password: '' })).code).toBe(2004);
    expect((await h.callRaw('/api/index/login', { username: 'alice' })).code).toBe(400);
  });

  it('A5 ten failed logins in 15 minutes lock the account with 429, even for the right password', async () => {
    const h = await harness();
    await signUp(h, 'alice');
    for (let i = 0; i < 10; i++) {
      expect((await h.call('/api/index/login', { username: 'alice', password: 'wrong1' })).code).toBe(2016);
    }
    expect((await h.call('/api/index/login', { username: 'alice', password: 'secret1' })).code).toBe(429);
    h.clock.advance(15 * 60_000 + 1);
    expect((await h.call('/api/index/login', { username: 'alice', password: 'secret1' })).code).toBe(0);
  });
});
