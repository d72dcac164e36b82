/** Hiding balances on this device (hide-balances.ts): the choice is kept, and no kept screen shows figures. */
import { afterEach, describe, expect, it } from 'vitest';
import { setBalancesHidden } from './hide-balances';

afterEach(() => localStorage.clear());

describe('hidden balances', () => {
  it('forget every screen kept for the shell (src/lib/snapshot.ts) the moment the member hides them', () => {
    localStorage.setItem('strata.snap:/user', '{"v":1}');
    localStorage.setItem('strata.snap:/home', '{"v":1}');
    setBalancesHidden(true);
    expect(localStorage.getItem('strata.hideBalances')).toBe('1');
    expect(localStorage.getItem('strata.snap:/user')).toBeNull();
    expect(localStorage.getItem('strata.snap:/home')).toBeNull();
    setBalancesHidden(false);
    expect(localStorage.getItem('strata.hideBalances')).toBeNull();
  });
});
