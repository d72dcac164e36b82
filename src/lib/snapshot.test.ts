/**
 * The last screen kept for the shell (src/lib/snapshot.ts): only regions that show data, with the language,
 * the member and the time; forgotten at logout. The shell's side (putting it back) is in tests/app/shell.test.tsx.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { userStore } from '../state/user-store';
import { forgetSnapshots, keepSnapshots, snapshotRoute, takeSnapshot, type Snapshot } from './snapshot';

const stored = (route: string): Snapshot | null =>
  JSON.parse(localStorage.getItem(`strata.snap:${route}`) ?? 'null') as Snapshot | null;

function screenWith(regions: string): void {
  document.body.innerHTML = `<div id="root">${regions}</div>`;
}

afterEach(() => {
  localStorage.clear();
  document.body.innerHTML = '';
  history.replaceState(null, '', '/');
});

describe('the last screen', () => {
  it('names routes as the shell script does', () => {
    expect(snapshotRoute('/')).toBe('/home');
    expect(snapshotRoute('/User/')).toBe('/user');
    expect(snapshotRoute('/market')).toBe('/market');
  });

  it('keeps the regions that show data, with the language, the member and the time', () => {
    history.replaceState(null, '', '/user');
    document.documentElement.lang = 'de-DE';
    localStorage.setItem('strata.user', JSON.stringify({ id: 42, token: 't', username: 'ann' }));
    screenWith(
      '<div data-snapshot="assets"><p><span elementtiming="balance">1.234,50</span></p></div>' +
        '<div data-snapshot="quotes"><div class="quote-skeleton"><span class="skeleton-bar"></span></div></div>',
    );
    takeSnapshot(document, 5_000);
    expect(stored('/user')).toEqual({
      v: 1,
      lang: 'de-DE',
      who: '42',
      at: 5_000,
      parts: { assets: '<p><span elementtiming="balance">1.234,50</span></p>' },
    });
  });

  it('keeps a screen with its query: /market sorted is not /market', () => {
    history.replaceState(null, '', '/market?sort=change-desc');
    screenWith('<div data-snapshot="quotes"><span elementtiming="quote-row">5,312.94</span></div>');
    takeSnapshot(document, 1);
    expect(stored('/market?sort=change-desc')?.parts['quotes']).toContain('5,312.94');
    expect(stored('/market')).toBeNull();
  });

  it('keeps nothing from a screen still loading, and leaves what was kept before', () => {
    history.replaceState(null, '', '/user');
    screenWith('<div data-snapshot="assets"><p aria-busy="true"><span>--</span></p></div>');
    takeSnapshot(document, 1);
    expect(stored('/user')).toBeNull();
    screenWith('<div data-snapshot="assets"><p><span elementtiming="balance">--</span></p></div>');
    takeSnapshot(document, 1);
    expect(stored('/user')).toBeNull();
    screenWith('<div data-snapshot="assets"><p><span elementtiming="balance">7.00</span></p></div>');
    takeSnapshot(document, 2);
    screenWith('<div data-snapshot="assets"><p aria-busy="true"><span>--</span></p></div>');
    takeSnapshot(document, 3);
    expect(stored('/user')?.at).toBe(2);
  });

  it('drops what was kept when the screen shows something else now: hidden balances, an error, nothing to list', () => {
    history.replaceState(null, '', '/user');
    screenWith('<div data-snapshot="assets"><p><span elementtiming="balance">7.00</span></p></div>');
    takeSnapshot(document, 1);
    expect(stored('/user')).not.toBeNull();
    screenWith('<div data-snapshot="assets"><p><span class="amount amount-hidden">****</span></p></div>');
    takeSnapshot(document, 2);
    expect(stored('/user')).toBeNull();
  });

  it('is taken when the page is hidden, and forgotten when the member logs out', () => {
    history.replaceState(null, '', '/home');
    screenWith(
      '<div data-snapshot="quotes"><ul><li><span elementtiming="quote-row">95,000.00</span></li></ul></div>',
    );
    const stop = keepSnapshots();
    window.dispatchEvent(new Event('pagehide'));
    stop();
    expect(stored('/home')?.parts['quotes']).toContain('95,000.00');
    localStorage.setItem('strata.snap:/user', 'x');
    localStorage.setItem('strata.lang', 'en-US');
    userStore.set({ id: '1', token: 't', username: 'ann' });
    userStore.clear();
    expect(stored('/home')).toBeNull();
    expect(localStorage.getItem('strata.snap:/user')).toBeNull();
    expect(localStorage.getItem('strata.lang')).toBe('en-US');
    forgetSnapshots();
  });
});
