/**
 * Withdrawal address checks with the engine's own chain rules (base58check for TRON, EIP-55 for Ethereum),
 * so the form refuses exactly what the server would (420 invalid, 421 other network) before sending.
 * While the member is still typing, a plausible beginning of an address is not called wrong yet.
 */
import { validateAddress } from '../../../engine/index';
import type { FieldReason, Network } from '../../machines/withdrawal-rules';

const FULL_LENGTH: Record<Network, number> = { TRC20: 34, ERC20: 42 };
const PREFIX: Record<Network, RegExp> = {
  TRC20: /^T[1-9A-HJ-NP-Za-km-z]*$/,
  ERC20: /^0(x[0-9a-fA-F]*)?$/,
};

/** The submit-time check: null when the server would accept the address on this network. */
export function checkAddress(address: string, network: Network): FieldReason | null {
  if (address.trim() === '') return 'required';
  const verdict = validateAddress(network, address);
  if (verdict.ok) return null;
  return verdict.reason === 'other-network' ? 'otherNetwork' : 'invalidAddress';
}

/** The as-typed check: silent on an empty field and on a beginning that can still become valid. */
export function checkTypedAddress(address: string, network: Network): FieldReason | null {
  const text = address.trim();
  if (text === '') return null;
  const reason = checkAddress(text, network);
  if (reason === null || reason === 'otherNetwork') return reason;
  const stillTyping = text.length < FULL_LENGTH[network] && PREFIX[network].test(text);
  return stillTyping ? null : reason;
}
