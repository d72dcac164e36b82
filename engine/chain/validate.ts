/**
 * Withdrawal address checks per network (SPEC.md §5 "network must match the receiving platform"). An address
 * that is valid on the other network gets its own answer, because sending TRC-20 USDT to an Ethereum address
 * (or the reverse) loses the funds and the member deserves to be told exactly that, not "invalid".
 */
import { TRON_PREFIX, toChecksumAddress, tronBase58check, type Network } from './encoding';

export type AddressCheck =
  | { ok: true; address: string }
  | { ok: false; reason: 'other-network'; detected: Network; message: string }
  | { ok: false; reason: 'invalid'; message: string };

const TRON_SHAPE = /^T[1-9A-HJ-NP-Za-km-z]{33}$/;
const ETH_SHAPE = /^0x[0-9a-fA-F]{40}$/;
const BASE58_ONLY = /^[1-9A-HJ-NP-Za-km-z]+$/;

type Verdict = { valid: true; canonical: string } | { valid: false; why: string };

function checkTron(address: string): Verdict {
  if (!TRON_SHAPE.test(address)) {
    return { valid: false, why: 'a TRC-20 address is 34 base58 characters starting with T' };
  }
  let bytes: Uint8Array;
  try {
    bytes = tronBase58check.decode(address);
  } catch {
    return { valid: false, why: 'its base58check checksum is wrong (a mistyped character?)' };
  }
  if (bytes.length !== 21 || bytes[0] !== TRON_PREFIX) {
    return { valid: false, why: 'it is not a TRON mainnet address (version byte 0x41)' };
  }
  return { valid: true, canonical: address };
}

function checkEthereum(address: string): Verdict {
  if (!ETH_SHAPE.test(address)) {
    return { valid: false, why: 'an ERC-20 address is 0x followed by 40 hexadecimal characters' };
  }
  const canonical = toChecksumAddress(address.slice(2));
  const body = address.slice(2);
  // EIP-55: single-case addresses carry no checksum; mixed case must match it exactly.
  const mixedCase = body !== body.toLowerCase() && body !== body.toUpperCase();
  if (mixedCase && address !== canonical) {
    return { valid: false, why: 'its EIP-55 checksum (upper/lower case) is wrong (a mistyped character?)' };
  }
  return { valid: true, canonical };
}

const CHECKS: Record<Network, (address: string) => Verdict> = { TRC20: checkTron, ERC20: checkEthereum };
const LABEL: Record<Network, string> = { TRC20: 'TRC-20 (TRON)', ERC20: 'ERC-20 (Ethereum)' };

/** The network a string is a valid address of, if any. */
export function detectNetwork(address: string): Network | undefined {
  if (checkTron(address).valid) return 'TRC20';
  if (checkEthereum(address).valid) return 'ERC20';
  return undefined;
}

/**
 * Checks `input` as an address on `network`. Surrounding whitespace (a common copy-paste artefact) is
 * ignored; anything else must be exact. On success `address` is the canonical form (EIP-55 for Ethereum).
 */
export function validateAddress(network: Network, input: string): AddressCheck {
  const address = input.trim();
  if (address === '') return { ok: false, reason: 'invalid', message: 'Wallet address is required' };
  const verdict = CHECKS[network](address);
  if (verdict.valid) return { ok: true, address: verdict.canonical };
  const other: Network = network === 'TRC20' ? 'ERC20' : 'TRC20';
  if (CHECKS[other](address).valid) {
    return {
      ok: false,
      reason: 'other-network',
      detected: other,
      message: `This is a ${LABEL[other]} address, but the withdrawal network is ${LABEL[network]}. Choose ${LABEL[other]} or enter a ${LABEL[network]} address; funds sent across networks are lost.`,
    };
  }
  const hint =
    network === 'TRC20' && !BASE58_ONLY.test(address.slice(1)) ? ' (base58 has no 0, O, I or l)' : '';
  return {
    ok: false,
    reason: 'invalid',
    message: `Invalid ${LABEL[network]} address: ${verdict.why}${hint}`,
  };
}
