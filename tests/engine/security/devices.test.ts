/**
 * Devices, login history, notices and the anti-phishing code (docs/RULES.md A27-A30).
 */
import { describe, expect, it } from 'vitest';
import {
  codeNow,
  deviceHeaders,
  enableTwoFactor,
  LAPTOP,
  loginFrom,
  memberOn,
  nextCode,
  PHONE,
  securityHarness,
} from './kit';

const CHROME_ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';

describe('sessions and login history', () => {
  it('A27 lists the live sessions with device and network, this device first; ends one, or all others', async () => {
    const { h } = await securityHarness();
    const phone = await memberOn(h, 'alice', { id: PHONE, userAgent: CHROME_ANDROID, ip: '203.0.113.7' });
    h.clock.advance(1_000);
    const laptop = (await loginFrom(h, 'alice', { id: LAPTOP, userAgent: FIREFOX_LINUX, ip: '192.168.1.20' }))
      .session;
    h.clock.advance(1_000);
    if (!laptop) throw new Error('laptop login');
    const third = (await loginFrom(h, 'alice', { id: 'tablet-device-id-03', ip: '2001:db8:1:2::9' })).session;
    if (!third) throw new Error('tablet login');
    const listed = (await h.call('/api/security/sessions', undefined, phone)).data;
    expect(listed.list).toHaveLength(3);
    expect(listed.list[0]).toMatchObject({
      current: true,
      device: 'Chrome 131 on Android',
      place: 'internet',
      network: '203.0.113.0/24',
    });
    // This device, then the newest first.
    expect(listed.list.map((s) => s.network)).toEqual([
      '203.0.113.0/24',
      '2001:db8:1::/48',
      '192.168.1.0/24',
    ]);
    expect(listed.list[2]).toMatchObject({ device: 'Firefox 133 on Linux', place: 'private' });
    // Handles are not tokens.
    for (const s of listed.list) expect([phone.token, laptop.token, third.token]).not.toContain(s.id);

    const laptopId = listed.list[2]?.id ?? '';
    expect((await h.call('/api/security/sessions/logout', { id: 'nope' }, phone)).code).toBe(404);
    expect((await h.call('/api/security/sessions/logout', { id: laptopId }, phone)).code).toBe(0);
    expect((await h.call('/api/user/getuser', undefined, laptop)).code).toBe(401);
    expect((await h.call('/api/security/sessions/logout', { id: laptopId }, phone)).code).toBe(404);

    expect((await h.call('/api/security/sessions/logoutOthers', undefined, phone)).data).toEqual({
      ended: 1,
    });
    expect((await h.call('/api/user/getuser', undefined, third)).code).toBe(401);
    expect((await h.call('/api/user/getuser', undefined, phone)).code).toBe(0);
    const after = (await h.call('/api/security/sessions', undefined, phone)).data;
    expect(after.list).toHaveLength(1);
  });

  it('A28 the login history lists each login, newest first, marking new devices and the second factor', async () => {
    const { h } = await securityHarness();
    const s = await memberOn(h, 'bob', { id: PHONE, userAgent: CHROME_ANDROID });
    const { secret } = await enableTwoFactor(h, s);
    h.clock.advance(60_000);
    expect((await loginFrom(h, 'bob', { id: LAPTOP }, { code: await codeNow(h, secret) })).code).toBe(0);
    h.clock.advance(60_000);
    expect((await loginFrom(h, 'bob', { id: PHONE, userAgent: CHROME_ANDROID })).code).toBe(0);
    const history = (await h.call('/api/security/logins', {}, s)).data;
    expect(history.total).toBe(3);
    expect(history.list.map((l) => [l.newDevice, l.secondFactor])).toEqual([
      [false, null],
      [true, 'totp'],
      [true, null],
    ]);
    // The engine's own tests have no network: neither demo device nor address.
    expect(history.list[1]?.place).toBe('device');
  });

  it('A28 keeps at most loginHistoryLimit logins', async () => {
    const { h } = await securityHarness();
    const s = await memberOn(h, 'cid');
    for (let i = 0; i < 52; i++) await loginFrom(h, 'cid', { id: PHONE });
    const history = (await h.call('/api/security/logins', { limit: 100 }, s)).data;
    expect(history.total).toBe(50);
  });

  it("A5 an unknown name's failed logins are counted as a member's are (429 at the limit), under a hash of the name", async () => {
    const { h } = await securityHarness();
    await memberOn(h, 'dana');
    const attempt = async (username: string) =>
      (
        await h.engine.handle({
          method: 'POST',
          path: '/api/index/login',
          headers: deviceHeaders({ id: PHONE }),
          body: { username, password: 'wrong-one' },
        })
      ).body.code;
    for (let i = 0; i < 10; i++) {
      expect(await attempt('dana')).toBe(2016);
      expect(await attempt('Nobody-Here')).toBe(2016);
    }
    expect(await attempt('dana')).toBe(429);
    // The same name whatever its case and spaces; another unknown name has its own counter.
    expect(await attempt(' nobody-here ')).toBe(429);
    expect(await attempt('nobody-else')).toBe(2016);
    const rows = ((await h.engine.diagnostics.snapshot())['rateLimits'] ?? []) as Array<{
      id: string;
      hits: number[];
    }>;
    const unknown = rows.filter((r) => r.id.startsWith('login:?'));
    expect(unknown.map((r) => r.hits.length).sort()).toEqual([1, 10]);
    for (const r of unknown) expect(r.id).toMatch(/^login:\?[0-9a-f]{64}$/);
  });
});

describe('notices and the anti-phishing code', () => {
  it('A29 a login from a new device is told on the feed; the first device is not', async () => {
    const { h } = await securityHarness();
    const feed: Array<{ type: string; data: unknown }> = [];
    h.engine.subscribe((m) => {
      if (m.type === 'notice') feed.push(m);
    });
    const s = await memberOn(h, 'dora', { id: PHONE });
    expect(feed).toHaveLength(0);
    await loginFrom(h, 'dora', { id: LAPTOP, userAgent: FIREFOX_LINUX, ip: '198.51.100.4' });
    expect(feed).toHaveLength(1);
    expect(feed[0]?.data).toMatchObject({
      memberId: s.id,
      notice: {
        kind: 'login.newDevice',
        params: { device: 'Firefox 133 on Linux', place: 'internet', network: '198.51.100.0/24' },
        antiPhishing: null,
      },
    });
    const listed = (await h.call('/api/security/notices', {}, s)).data;
    expect(listed.list.map((n) => n.kind)).toEqual(['login.newDevice']);
  });

  it('A30 the anti-phishing code is checked (6120), set and removed, and carried by every notice after it', async () => {
    const { h } = await securityHarness();
    const s = await memberOn(h, 'eve', { id: PHONE });
    for (const phrase of ['', '   ', 'abc', 'a'.repeat(21), '<b>hi</b>', 'ok"quote']) {
      expect((await h.call('/api/security/antiphishing', { phrase }, s)).code).toBe(6120);
    }
    expect((await h.call('/api/security/antiphishing', { phrase: '  Blue   heron 7 ' }, s)).data).toEqual({
      antiPhishing: 'Blue heron 7',
    });
    // Any script: a member writes it in their own language.
    expect((await h.call('/api/security/antiphishing', { phrase: 'سلام دوست' }, s)).code).toBe(0);
    expect((await h.call('/api/security/antiphishing', { phrase: 'Blue heron 7' }, s)).code).toBe(0);
    await loginFrom(h, 'eve', { id: LAPTOP });
    const listed = (await h.call('/api/security/notices', {}, s)).data;
    expect(listed.list[0]).toMatchObject({ kind: 'login.newDevice', antiPhishing: 'Blue heron 7' });
    expect(listed.list.filter((n) => n.kind === 'antiPhishing.set')).toHaveLength(3);
    expect((await h.call('/api/security/overview', undefined, s)).data).toMatchObject({
      antiPhishing: 'Blue heron 7',
    });
    // With two-factor on, changing it is a security change.
    const { secret } = await enableTwoFactor(h, s);
    expect((await h.call('/api/security/antiphishing', { phrase: null }, s)).code).toBe(6101);
    const removed = await h.call(
      '/api/security/antiphishing',
      { phrase: null, code: await nextCode(h, secret) },
      s,
    );
    expect(removed.data).toEqual({ antiPhishing: null });
  });

  it("A29 notices reach the member's devices through sync", async () => {
    const { h } = await securityHarness();
    const s = await memberOn(h, 'finn', { id: PHONE });
    await loginFrom(h, 'finn', { id: LAPTOP });
    const pulled = (await h.call('/api/sync/pull', {}, s)).data;
    expect(pulled.changes.filter((c) => c.table === 'notices').map((c) => c.record)).toMatchObject([
      { kind: 'login.newDevice' },
    ]);
  });
});
