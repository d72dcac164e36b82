import { describe, expect, it } from 'vitest';
import { detectNetwork, validateAddress } from './validate';

const TRON = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const ETH = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

describe('C3 withdrawal addresses are checked per network, checksum included', () => {
  it('C3 accepts valid addresses and answers the canonical form', () => {
    expect(validateAddress('TRC20', TRON)).toEqual({ ok: true, address: TRON });
    expect(validateAddress('ERC20', ETH)).toEqual({ ok: true, address: ETH });
    // Single-case Ethereum addresses carry no checksum (EIP-55) and are answered checksummed.
    expect(validateAddress('ERC20', ETH.toLowerCase())).toEqual({ ok: true, address: ETH });
    expect(validateAddress('ERC20', '0x' + ETH.slice(2).toUpperCase())).toEqual({ ok: true, address: ETH });
    expect(validateAddress('TRC20', `  ${TRON}\n`)).toEqual({ ok: true, address: TRON });
  });

  it('C3 refuses a TRON address with one character changed (base58check checksum)', () => {
    const typo = TRON.slice(0, -1) + (TRON.endsWith('t') ? 'u' : 't');
    const check = validateAddress('TRC20', typo);
    expect(check).toMatchObject({ ok: false, reason: 'invalid' });
    expect(check.ok || check.message).toMatch(/checksum/);
  });

  it('C3 refuses a mixed-case Ethereum address whose EIP-55 checksum is wrong', () => {
    const flipped = ETH.replace('a', 'A');
    const check = validateAddress('ERC20', flipped);
    expect(check).toMatchObject({ ok: false, reason: 'invalid' });
    expect(check.ok || check.message).toMatch(/EIP-55/);
  });

  it('C3 refuses a base58check string whose version byte is not 0x41', () => {
    // A valid base58check payload of 21 bytes with version 0x00 (a Bitcoin address) is not TRON.
    expect(validateAddress('TRC20', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2')).toMatchObject({
      ok: false,
      reason: 'invalid',
    });
  });

  it('C3 refuses malformed input with a reason', () => {
    for (const input of [
      '',
      '   ',
      'T',
      'hello',
      TRON + 'x',
      '0x123',
      '0x' + 'g'.repeat(40),
      'T0' + TRON.slice(2),
    ]) {
      const check = validateAddress('TRC20', input);
      expect(check.ok).toBe(false);
      if (!check.ok) expect(check.message.length).toBeGreaterThan(10);
    }
    expect(validateAddress('ERC20', ETH + '0')).toMatchObject({ ok: false, reason: 'invalid' });
  });

  it('C4 an address of the other network is told apart from an invalid one', () => {
    const toTron = validateAddress('TRC20', ETH);
    expect(toTron).toMatchObject({ ok: false, reason: 'other-network', detected: 'ERC20' });
    expect(toTron.ok || toTron.message).toMatch(/ERC-20.*TRC-20/);
    expect(validateAddress('ERC20', TRON)).toMatchObject({
      ok: false,
      reason: 'other-network',
      detected: 'TRC20',
    });
  });

  it('detects the network of an address', () => {
    expect(detectNetwork(TRON)).toBe('TRC20');
    expect(detectNetwork(ETH)).toBe('ERC20');
    expect(detectNetwork('nope')).toBeUndefined();
  });
});
