/**
 * Deposit rules that need no engine: the shape of a transaction hash per network (the manual flow's txid),
 * and which deposits may still be credited. Crediting itself happens in one storage transaction in the
 * handlers; these functions only decide.
 */
import type { Network } from '../chain/addresses';

export type DepositStatus = 'pending' | 'success' | 'rejected';
/** `chain`: a payment seen on a simulated chain; `manual`: submitted by the member, checked by a reviewer. */
export type DepositSource = 'chain' | 'manual';

const TXID_SHAPE: Record<Network, RegExp> = {
  ERC20: /^0x[0-9a-fA-F]{64}$/,
  TRC20: /^[0-9a-fA-F]{64}$/,
};

const TXID_HELP: Record<Network, string> = {
  ERC20: 'an ERC-20 transaction hash is 0x followed by 64 hexadecimal characters',
  TRC20: 'a TRC-20 transaction id is 64 hexadecimal characters',
};

export type TxidCheck = { ok: true; txid: string } | { ok: false; message: string };

/**
 * Normalises to lower case so the same transaction typed twice in different case is recognised as one
 * (D3: a transaction is credited at most once).
 */
export function checkTxid(network: Network, input: string): TxidCheck {
  const txid = input.trim();
  if (!TXID_SHAPE[network].test(txid))
    return { ok: false, message: `Invalid transaction hash: ${TXID_HELP[network]}` };
  return { ok: true, txid: txid.toLowerCase() };
}

/** D2: only a pending deposit can be credited; crediting moves it to success, so a second attempt is a no-op. */
export function canCredit(status: DepositStatus): boolean {
  return status === 'pending';
}
