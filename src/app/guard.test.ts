import { describe, expect, it } from 'vitest';
import { guardRedirect, normalisePath } from './guard';
import { REDIRECTS, SCREENS } from './paths';

const PUBLIC = ['/login', '/register', '/forget', '/home', '/home/more'];
const ALL_PATHS = SCREENS.map((s) => s.path);

describe('route guard, SPEC.md §2', () => {
  it('covers every screen of §2 (37 paths), /user/move (issue 10), the member-security screens (§10) and the notification centre and statement (§12)', () => {
    expect(ALL_PATHS).toHaveLength(46);
    expect(ALL_PATHS).toContain('/user/move');
    for (const path of [
      '/user/twofactor',
      '/user/passkeys',
      '/user/devices',
      '/user/antiphishing',
      '/user/addressbook',
      '/user/notifications',
      '/user/statement',
    ])
      expect(ALL_PATHS).toContain(path);
  });

  describe('with a stored user id', () => {
    it.each(ALL_PATHS.filter((p) => p !== '/login'))('may visit %s', (path) => {
      expect(guardRedirect(path, true)).toBeNull();
    });
    it('is sent from /login to /', () => {
      expect(guardRedirect('/login', true)).toBe('/');
      expect(guardRedirect('/Login/', true)).toBe('/');
    });
    it('reaches an unknown path (the 404 page)', () => {
      expect(guardRedirect('/nowhere', true)).toBeNull();
    });
  });

  describe('without a stored user id', () => {
    it.each(PUBLIC)('may visit %s', (path) => {
      expect(guardRedirect(path, false)).toBeNull();
    });
    it.each(ALL_PATHS.filter((p) => !PUBLIC.includes(p)))('is sent from %s to /login', (path) => {
      expect(guardRedirect(path, false)).toBe('/login');
    });
    it('is sent from an unknown path to /login', () => {
      expect(guardRedirect('/nowhere', false)).toBe('/login');
    });
    it('matches like the router: case and trailing slash do not open a protected path', () => {
      expect(guardRedirect('/USER/', false)).toBe('/login');
      expect(guardRedirect('/Home/More/', false)).toBeNull();
    });
  });

  describe('redirect helpers forward first; their target is guarded', () => {
    it.each([...Object.keys(REDIRECTS), '/redirect/user/vip'])('%s is not decided by the guard', (path) => {
      expect(guardRedirect(path, false)).toBeNull();
      expect(guardRedirect(path, true)).toBeNull();
    });
    it('/finance forwards to /finance/finance, which needs a user', () => {
      expect(REDIRECTS['/finance']).toBe('/finance/finance');
      expect(guardRedirect('/finance/finance', false)).toBe('/login');
    });
  });

  it('normalises paths', () => {
    expect(normalisePath('/user/changePsw/')).toBe('/user/changepsw');
    expect(normalisePath('/')).toBe('/');
  });
});
