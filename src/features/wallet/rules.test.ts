import { describe, expect, it } from 'vitest';
import { checkAddress, checkTypedAddress } from './address-check';
import { checkAmount, cleanAmount } from '../../lib/amount';
import { validateTransfer } from './transfer-rules';

describe('amount text (API.md: decimal strings, at most 6 places, never floats)', () => {
  it('keeps digits and one dot, turns a comma into the dot, cuts past 6 decimals', () => {
    expect(cleanAmount('12a.3,4')).toBe('12.34');
    expect(cleanAmount('1,5')).toBe('1.5');
    expect(cleanAmount('0.12345678')).toBe('0.123456');
    expect(cleanAmount('-7')).toBe('7');
  });

  it('compares exactly in micro-USDT: 0.1 + 0.2 style amounts are not rounded', () => {
    expect(checkAmount('', '1')).toBe('required');
    expect(checkAmount('0', '1')).toBe('invalidAmount');
    expect(checkAmount('0.999999', '1')).toBe('belowMinimum');
    expect(checkAmount('1', '1')).toBeNull();
    expect(checkAmount('100.000001', '1', '100')).toBe('overAvailable');
    expect(checkAmount('100', '1', '100')).toBeNull();
    expect(checkAmount('900719925474099.000001', '1')).toBeNull();
    // The engine refuses more than 15 integer digits; the form refuses them the same way.
    expect(checkAmount('9007199254740993.000001', '1')).toBe('invalidAmount');
  });
});

describe('transfer rules (SPEC.md §5: amount >= 1, not oneself)', () => {
  const me = { username: 'alice', email: 'alice@example.test', phone: '+15550001' };
  it('refuses oneself by username, e-mail or phone, in any case', () => {
    for (const account of ['alice', 'ALICE@example.test', '+15550001'])
      expect(validateTransfer({ account, amount: '5' }, me).account).toBe('self');
    expect(validateTransfer({ account: 'bob', amount: '5' }, me)).toEqual({});
  });

  it('needs a recipient and at least 1 USDT within the available balance', () => {
    expect(validateTransfer({ account: ' ', amount: '' }, me)).toEqual({
      account: 'required',
      amount: 'required',
    });
    // The minimum is the site's (limits.minTransfer from the engine config), passed in by the screen.
    expect(validateTransfer({ account: 'bob', amount: '0.99' }, me, undefined, '1').amount).toBe(
      'belowMinimum',
    );
    expect(validateTransfer({ account: 'bob', amount: '0.99' }, me).amount).toBeUndefined();
    expect(validateTransfer({ account: 'bob', amount: '10.5' }, me, '10').amount).toBe('overAvailable');
  });
});

describe('withdrawal address (SPEC.md §5: a valid address on the network of the receiving platform)', () => {
  const tron = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
  const eth = '0xdAC17F958D2ee523a2206206994597C13D831ec7';
  it('accepts checksummed addresses on their own network and names the other network', () => {
    expect(checkAddress(tron, 'TRC20')).toBeNull();
    expect(checkAddress(eth, 'ERC20')).toBeNull();
    expect(checkAddress(eth.toLowerCase(), 'ERC20')).toBeNull();
    expect(checkAddress(tron, 'ERC20')).toBe('otherNetwork');
    expect(checkAddress(eth, 'TRC20')).toBe('otherNetwork');
    expect(checkAddress('  ', 'TRC20')).toBe('required');
  });

  it('refuses a broken checksum (one mistyped character)', () => {
    expect(checkAddress(`${tron.slice(0, -1)}u`, 'TRC20')).toBe('invalidAddress');
    expect(checkAddress(eth.replace('dAC', 'DAC'), 'ERC20')).toBe('invalidAddress');
  });

  it('while typing, stays silent on a plausible beginning', () => {
    expect(checkTypedAddress('TR7N', 'TRC20')).toBeNull();
    expect(checkTypedAddress('0xdAC1', 'ERC20')).toBeNull();
    expect(checkTypedAddress('TR0', 'TRC20')).toBe('invalidAddress');
    expect(checkTypedAddress('x', 'ERC20')).toBe('invalidAddress');
    expect(checkTypedAddress(tron, 'ERC20')).toBe('otherNetwork');
  });
});
