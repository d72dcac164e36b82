/**
 * Address encodings of the two networks, without any key derivation: Ethereum's EIP-55 checksummed hex and
 * TRON's base58check with the 0x41 version byte, over the same 20 account bytes. Kept apart from
 * addresses.ts (BIP-32, secp256k1) so validation can be loaded without the curve code.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, concatBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { createBase58check } from '@scure/base';

export type Network = 'TRC20' | 'ERC20';
export const NETWORKS: readonly Network[] = ['TRC20', 'ERC20'];

/** The version byte that starts every TRON mainnet address (base58 "T..."). */
export const TRON_PREFIX = 0x41;

export const tronBase58check = createBase58check(sha256);

/** EIP-55: each hex letter is upper-cased when the matching nibble of keccak-256(lowercase hex) is >= 8. */
export function toChecksumAddress(hex40: string): string {
  const lower = hex40.toLowerCase().replace(/^0x/, '');
  const hash = bytesToHex(keccak_256(utf8ToBytes(lower)));
  let out = '0x';
  for (let i = 0; i < lower.length; i++) {
    const char = lower.charAt(i);
    out += Number.parseInt(hash.charAt(i), 16) >= 8 ? char.toUpperCase() : char;
  }
  return out;
}

export function ethereumAddress(accountBytes: Uint8Array): string {
  return toChecksumAddress(bytesToHex(accountBytes));
}

export function tronAddress(accountBytes: Uint8Array): string {
  return tronBase58check.encode(concatBytes(Uint8Array.of(TRON_PREFIX), accountBytes));
}
