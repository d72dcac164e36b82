import { describe, expect, it } from 'vitest';
import { canCredit, checkTxid } from './rules';

const HEX64 = 'ab'.repeat(32);

describe('D3 a transaction hash is checked per network and compared case-insensitively', () => {
  it('D3 TRC20 ids are 64 hex; ERC20 hashes are 0x + 64 hex', () => {
    expect(checkTxid('TRC20', HEX64)).toEqual({ ok: true, txid: HEX64 });
    expect(checkTxid('ERC20', `0x${HEX64}`)).toEqual({ ok: true, txid: `0x${HEX64}` });
    expect(checkTxid('TRC20', `0x${HEX64}`).ok).toBe(false);
    expect(checkTxid('ERC20', HEX64).ok).toBe(false);
    expect(checkTxid('ERC20', `0x${HEX64}0`).ok).toBe(false);
    expect(checkTxid('TRC20', 'zz'.repeat(32)).ok).toBe(false);
  });

  it('D3 the same hash in another letter case normalises to one value', () => {
    expect(checkTxid('ERC20', `0x${HEX64.toUpperCase()}`)).toEqual({ ok: true, txid: `0x${HEX64}` });
  });
});

describe('D2 a deposit is credited exactly once', () => {
  it('D2 only a pending deposit can be credited', () => {
    expect(canCredit('pending')).toBe(true);
    expect(canCredit('success')).toBe(false);
    expect(canCredit('rejected')).toBe(false);
  });
});
