import { describe, expect, it } from 'vitest';
import { captcha, harness, register, registration, signUp } from '../../tests/engine/harness';

describe('registration (docs/RULES.md A1-A3)', () => {
  it.each([
    [{ username: '' }, 2001],
    [{ username: undefined }, 2001],
    [{ username: 'a'.repeat(26) }, 2002],
    [{ username: 'bad name' }, 2003],
    [{ username: 'bad_name' }, 2003],
    [{ password: '', repassword: '' }, 2004],
    [{ password: 'abc', repassword: 'abc' }, 2005],
    [{ repassword: 'other1' }, 402],
    [{ key: '', rekey: '' }, 20041],
    [{ key: 'abc', rekey: 'abc' }, 20051],
    [{ rekey: 'key2' }, 402],
    [{ email: undefined }, 2006],
    [{ email: '' }, 2006],
    [{ email: undefined, phone: '' }, 2008],
    [{ email: 'not-an-email' }, 2007],
    [{ email: undefined, phone: '12ab' }, 2009],
    [{ question: '' }, 1998],
    [{ answer: '  ' }, 1998],
    [{ invite: 'NOPE1234' }, 1999],
  ])('A1 %j answers %i and creates nobody', async (change, code) => {
    const h = await harness();
    const r = await register(h, 'alice', change);
    expect(r.code).toBe(code);
    expect(r.msg.length).toBeGreaterThan(5);
    expect((await h.call('/api/index/question', { username: 'alice' })).code).toBe(3000);
  });

  it('A1 a valid registration answers the new id, and the member can log in', async () => {
    const h = await harness();
    const r = await register(h, 'Alice', { phone: '+1 555-0100' });
    expect(r).toEqual({ code: 0, msg: 'ok', data: { id: '100001' } });
    const again = await register(h, 'bob', { email: 'bob@example.com' });
    expect(again.data).toEqual({ id: '100002' });
  });

  it('A2 usernames, e-mails and phones are unique whatever their case or spacing (214, 215, 216)', async () => {
    const h = await harness();
    await signUp(h, 'alice', { email: 'Alice@Example.com', phone: '+15550100' });
    expect((await register(h, 'ALICE', { email: 'other@example.com' })).code).toBe(214);
    expect((await register(h, 'bob', { email: 'alice@example.COM' })).code).toBe(215);
    expect((await register(h, 'bob', { email: 'b@example.com', phone: '+1 555 0100' })).code).toBe(216);
  });

  it('A1 an existing invitation code links the inviter; a missing one answers 1999', async () => {
    const h = await harness();
    const alice = await signUp(h, 'alice');
    const code = (await h.call('/api/user/getuser', undefined, alice)).data.inviteCode;
    expect(code).toMatch(/^[A-Z2-9]{8}$/);
    expect((await register(h, 'bob', { invite: code.toLowerCase() })).code).toBe(0);
    expect((await register(h, 'carol', { invite: 'ZZZZZZZZ' })).code).toBe(1999);
  });

  it('A3 the captcha is needed (2010), must match (2013), is single use and expires after 5 minutes', async () => {
    const h = await harness();
    const form = registration('alice');
    expect((await h.call('/api/index/register', { ...form, verify: '', verifyKey: 'x' })).code).toBe(2010);
    const c = await captcha(h);
    // No captcha answer at all: outside the contract's body, so sent unchecked.
    expect((await h.callRaw('/api/index/register', { ...form, verifyKey: c.verifyKey })).code).toBe(2010);
    const wrong = c.verify === '0000' ? '1111' : '0000';
    expect((await h.call('/api/index/register', { ...form, ...c, verify: wrong })).code).toBe(2013);
    // spent by the failed attempt: the right code no longer works
    expect((await h.call('/api/index/register', { ...form, ...c })).code).toBe(2013);
    const late = await captcha(h);
    h.clock.advance(5 * 60_000);
    expect((await h.call('/api/index/register', { ...form, ...late })).code).toBe(2013);
    const fresh = await captcha(h);
    expect((await h.call('/api/index/register', { ...form, ...fresh })).code).toBe(0);
    expect((await h.call('/api/index/register', { ...registration('bob'), ...fresh })).code).toBe(2013);
  });

  it('A3 the captcha is an SVG data URL; demo mode shows the code; 30 a minute then 429', async () => {
    const h = await harness();
    const first = (await h.get('/index/index/verify')).data;
    expect(first.image.startsWith('data:image/svg+xml')).toBe(true);
    expect(first.code).toMatch(/^\d{4}$/);
    for (let i = 1; i < 30; i++) expect((await h.get('/index/index/verify')).code).toBe(0);
    expect((await h.get('/index/index/verify')).code).toBe(429);
    h.clock.advance(60_001);
    expect((await h.get('/index/index/verify')).code).toBe(0);
    const live = await harness({ config: { demo: false } });
    expect((await live.get('/index/index/verify')).data).not.toHaveProperty('code');
  });

  it('A4 secrets are stored only as PBKDF2 hashes and never answered', async () => {
    const h = await harness();
    await signUp(h, 'alice');
    const snapshot = await h.engine.diagnostics.snapshot();
    const dump = JSON.stringify(snapshot);
    for (const secret of ['secret1', 'key1', 'Rex', '"rex"']) expect(dump).not.toContain(secret);
    expect(snapshot['members']).toMatchObject([
      {
        passwordHash: expect.stringMatching(/^pbkdf2-sha256\$1000\$/),
        keyHash: expect.stringMatching(/^pbkdf2-sha256\$/),
      },
    ]);
    const member = (await h.call('/api/index/question', { username: 'alice' })).data;
    expect(member).toEqual({ question: 'First pet?' });
  });

  it('G5 wrong types and extra fields answer 400', async () => {
    const h = await harness();
    const c = await captcha(h);
    const raw = (body: unknown) => h.callRaw('/api/index/register', body);
    expect((await raw({ ...registration('alice'), ...c, username: 5 })).code).toBe(400);
    expect((await raw({ ...registration('alice'), ...c, admin: true })).code).toBe(400);
    expect((await raw('not json')).code).toBe(400);
  });
});
