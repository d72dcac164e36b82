/**
 * The API server's side of the signer's TRON route (server/signer/tron.ts): a TronSigner whose key lives in
 * the signer process, reached over HTTP with the shared secret like RemoteSigner (server/signer/client.ts).
 * It sends the raw_data bytes TronGrid built, never a bare hash, and checks what comes back: the txID is
 * sha256 of those bytes and the signature recovers to the signer's address.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import type { TronSigner } from '../chain/tron';
import { request, SignerError, type RemoteSignerOptions } from './client';
import { tronAddressHex, tronSigner } from './tron';

function isTronAddress(address: string): boolean {
  try {
    tronAddressHex(address);
    return true;
  } catch {
    return false;
  }
}

export class RemoteTronSigner implements TronSigner {
  private constructor(
    readonly address: string,
    private readonly options: RemoteSignerOptions,
  ) {}

  /**
   * Asks the signer for its TRON address (authenticating with the secret). Fails with a SignerError, also
   * when the signer has no TRON key (404) or its address is not `expectedAddress` (TRON_HOT_WALLET).
   */
  static async connect(options: RemoteSignerOptions): Promise<RemoteTronSigner> {
    let answer: { address?: unknown };
    try {
      answer = (await request(options, 'GET', '/v1/tron/address')) as { address?: unknown };
    } catch (error) {
      if (error instanceof SignerError && error.status === 404)
        throw new SignerError('The signer has no TRON key (SIGNER_TRON_KEY)', 404);
      throw error;
    }
    const address = answer.address;
    if (typeof address !== 'string' || !isTronAddress(address))
      throw new SignerError('The signer answered no TRON address');
    if (options.expectedAddress && options.expectedAddress !== address)
      throw new SignerError(
        `The signer's TRON address ${address} is not TRON_HOT_WALLET ${options.expectedAddress}`,
      );
    return new RemoteTronSigner(address, options);
  }

  /**
   * `withdrawalId` is required: the signer journals it and signs one withdrawal id as one transaction only
   * (the same txId again, nothing else).
   */
  async signTransaction(
    transaction: { txId: string; rawDataHex: string },
    context: { withdrawalId: string },
  ): Promise<string> {
    const txId = bytesToHex(sha256(hexToBytes(transaction.rawDataHex)));
    if (txId !== transaction.txId.toLowerCase())
      throw new SignerError('The transaction id is not sha256 of its raw_data');
    const answer = (await request(this.options, 'POST', '/v1/tron/sign', {
      rawDataHex: transaction.rawDataHex,
      withdrawalId: context.withdrawalId,
    })) as { signature?: unknown; txId?: unknown };
    if (answer.txId !== txId) throw new SignerError('The signer answered another transaction id');
    const signature = answer.signature;
    if (typeof signature !== 'string' || !/^[0-9a-f]{130}$/.test(signature))
      throw new SignerError('The signer answered no signature');
    let signedBy: string;
    try {
      signedBy = tronSigner(hexToBytes(txId), hexToBytes(signature));
    } catch {
      throw new SignerError('The signer answered an invalid signature');
    }
    if (signedBy !== this.address) throw new SignerError("The signer's signature is not by its TRON address");
    return signature;
  }
}
