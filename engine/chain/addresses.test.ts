import { secp256k1 } from '@noble/curves/secp256k1.js';
import { hexToBytes } from '@noble/hashes/utils.js';
import { HDKey } from '@scure/bip32';
import { describe, expect, it } from 'vitest';
import {
  ADDRESS_CACHE_LIMIT,
  AddressBook,
  addressFromPublicKey,
  bip44Path,
  hdRootFromSeed,
  memberDepositAddress,
  platformAddress,
  toChecksumAddress,
  tronAddress,
  walletXpubFromSeed,
  WatchOnlyBook,
} from './addresses';

// BIP-39 "abandon x11 about" with no passphrase: its seed and the addresses every wallet derives from it.
const ABANDON_SEED =
  '5eb00bbddcf069084889a8ab9155568165f5c453ccb85e70811aaed6f6da5fc19a5ac40b389cd370d086206dec8aa6c43daea6690f20ad3d8d48b2d2ce9e38e4';

describe('C1 addresses are derived with the real algorithms', () => {
  it('C1 EIP-55 checksums match the test vectors of the EIP', () => {
    for (const vector of [
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
      '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
      '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
    ]) {
      expect(toChecksumAddress(vector.toLowerCase())).toBe(vector);
    }
  });

  it('C1 private key 1 gives the well-known Ethereum and TRON addresses', () => {
    const publicKey = secp256k1.getPublicKey(hexToBytes('00'.repeat(31) + '01'));
    expect(addressFromPublicKey('ERC20', publicKey)).toBe('0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf');
    expect(addressFromPublicKey('TRC20', publicKey)).toBe('TMVQGm1qAQYVdetCeGRRkTWYYrLXuHK2HC');
  });

  it('C1 TRON base58check of 0x41 + 20 bytes matches a known pair (the USDT contract)', () => {
    expect(tronAddress(hexToBytes('a614f803b6fd780986a42c78ec9c7f77e6ded13c'))).toBe(
      'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    );
  });

  it('C1 BIP-44 paths give the addresses wallets derive from the BIP-39 test mnemonic', () => {
    const root = HDKey.fromMasterSeed(hexToBytes(ABANDON_SEED));
    expect(memberDepositAddress(root, 'ERC20', 0)).toBe('0x9858EfFD232B4033E47d90003D41EC34EcaEda94');
    expect(memberDepositAddress(root, 'TRC20', 0)).toBe('TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH');
    expect(bip44Path('TRC20', 0, 7)).toBe("m/44'/195'/0'/0/7");
    expect(bip44Path('ERC20', 0, 7)).toBe("m/44'/60'/0'/0/7");
  });
});

describe('C2 each member has an exclusive address per network, reproducible from the seed', () => {
  it('C2 the same seed gives the same addresses; another seed gives others', () => {
    const a = new AddressBook(42);
    const b = new AddressBook(42);
    const c = new AddressBook(43);
    expect(a.member('TRC20', 1)).toBe(b.member('TRC20', 1));
    expect(a.member('ERC20', 1)).toBe(b.member('ERC20', 1));
    expect(a.member('TRC20', 1)).not.toBe(c.member('TRC20', 1));
  });

  it('C2 members and the platform never share an address', () => {
    const book = new AddressBook(7);
    const seen = new Set<string>();
    for (const network of ['TRC20', 'ERC20'] as const) {
      for (let index = 0; index < 20; index++) seen.add(book.member(network, index));
      seen.add(book.platform(network));
    }
    expect(seen.size).toBe(42);
  });

  it('C2 platform addresses sit on BIP-44 account 1 and have the right shapes', () => {
    const root = hdRootFromSeed(7);
    expect(platformAddress(root, 'TRC20')).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    expect(platformAddress(root, 'ERC20')).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(platformAddress(root, 'ERC20')).toBe(toChecksumAddress(platformAddress(root, 'ERC20').slice(2)));
  });

  it('C2 the cached book derives exactly what the full BIP-44 path derives', () => {
    const book = new AddressBook(5);
    const root = hdRootFromSeed(5);
    for (const network of ['TRC20', 'ERC20'] as const) {
      for (const index of [0, 1, 100_001]) {
        expect(book.member(network, index)).toBe(memberDepositAddress(root, network, index));
      }
      expect(book.platform(network)).toBe(platformAddress(root, network));
    }
  });

  it('refuses an address index outside BIP-32 non-hardened range', () => {
    expect(() => bip44Path('TRC20', 0, -1)).toThrow(RangeError);
    expect(() => bip44Path('TRC20', 0, 2 ** 31)).toThrow(RangeError);
    expect(() => new AddressBook(1).member('TRC20', 2 ** 31)).toThrow(RangeError);
  });
});

describe('the watch-only address book is bounded', () => {
  it('remembers the most recently used addresses only, and derives a forgotten one again, the same', () => {
    expect(ADDRESS_CACHE_LIMIT).toBe(10_000);
    const xpub = walletXpubFromSeed(hexToBytes(ABANDON_SEED));
    const unbounded = new WatchOnlyBook(xpub);
    const book = new WatchOnlyBook(xpub, 3);
    for (const i of [1, 2, 3]) book.member('TRC20', i);
    book.member('TRC20', 1); // used again: now the most recent
    book.member('ERC20', 4); // forgets 2, the least recently used
    expect(book.remembered).toBe(3);
    expect([1, 2, 3].map((i) => book.remembers('TRC20', i))).toEqual([true, false, true]);
    for (const i of [1, 2, 3]) expect(book.member('TRC20', i)).toBe(unbounded.member('TRC20', i));
    expect(book.member('ERC20', 4)).toBe(unbounded.member('ERC20', 4));
    expect(book.platform('TRC20')).toBe(unbounded.platform('TRC20'));
    expect(book.remembered).toBe(3);
  });
});
