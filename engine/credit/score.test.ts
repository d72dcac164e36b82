import { describe, expect, it } from 'vitest';
import { creditScore } from './score';

const NOW = Date.UTC(2026, 10, 21);
const DAY = 86_400_000;
const base = {
  realNameStatus: 'none' as const,
  vip: 0,
  vipExpiresAt: null,
  createdAt: NOW,
  keyLockedUntil: null,
};

describe('credit score', () => {
  it('R3 starts at 60 and adds real name, VIP level and account age as documented', () => {
    expect(creditScore(base, NOW)).toBe(60);
    expect(creditScore({ ...base, realNameStatus: 'passed' }, NOW)).toBe(70);
    expect(creditScore({ ...base, vip: 3 }, NOW)).toBe(72);
    expect(creditScore({ ...base, createdAt: NOW - 95 * DAY }, NOW)).toBe(63);
    expect(creditScore({ ...base, createdAt: NOW - 900 * DAY }, NOW)).toBe(66);
    expect(creditScore({ ...base, realNameStatus: 'passed', vip: 6, createdAt: NOW - 900 * DAY }, NOW)).toBe(
      100,
    );
  });

  it('R3 an expired VIP trial no longer counts, and a locked key costs 20 until it unlocks', () => {
    expect(creditScore({ ...base, vip: 1, vipExpiresAt: NOW - 1 }, NOW)).toBe(60);
    expect(creditScore({ ...base, keyLockedUntil: NOW + 1 }, NOW)).toBe(40);
    expect(creditScore({ ...base, keyLockedUntil: NOW }, NOW)).toBe(60);
  });
});
