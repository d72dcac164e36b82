/**
 * Pure simulated chains (API.md "Networks"). A chain has no state of its own: its height is a function of
 * time, a transaction's confirmations a function of its inclusion height and the current height, and its
 * hash a function of the engine seed and a unique key. So restarting the engine from storage resumes the
 * same chain, and the same seed replays the same hashes (ARCHITECTURE.md principle 3).
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { Network } from './addresses';

/** The chain part of engine config's `networks` entries (engine/config.ts). */
export interface ChainParams {
  /** Milliseconds between blocks. */
  blockMs: number;
  /** Confirmations a payment needs before it is credited. */
  confirmations: number;
}

/**
 * Block 0 of both simulated chains is the Unix epoch: a fixed genesis keeps heights stable across engine
 * restarts without storing anything.
 */
export const GENESIS_MS = 0;

export interface ChainTx {
  network: Network;
  hash: string;
  /** The block that includes it: the first block produced after it was sent. */
  includedHeight: number;
  sentAtMs: number;
}

export class SimulatedChain {
  constructor(
    readonly network: Network,
    readonly params: Readonly<ChainParams>,
    private readonly seed: number,
    private readonly genesisMs: number = GENESIS_MS,
  ) {
    if (!Number.isSafeInteger(params.blockMs) || params.blockMs <= 0) {
      throw new RangeError('blockMs must be a positive integer');
    }
    if (!Number.isSafeInteger(params.confirmations) || params.confirmations < 1) {
      throw new RangeError('confirmations must be a positive integer');
    }
  }

  /** height = floor((now - genesis) / blockTime). */
  heightAt(nowMs: number): number {
    return Math.floor((nowMs - this.genesisMs) / this.params.blockMs);
  }

  /** The time block `height` is produced. */
  blockTimeOf(height: number): number {
    return this.genesisMs + height * this.params.blockMs;
  }

  /**
   * Sends a transaction at `nowMs`. `uniqueKey` names it (a record id); the hash is sha256 over the engine
   * seed, the network and that key, so it is deterministic yet never repeats between records.
   */
  send(uniqueKey: string, nowMs: number): ChainTx {
    return {
      network: this.network,
      hash: this.txHash(uniqueKey),
      includedHeight: this.heightAt(nowMs) + 1,
      sentAtMs: nowMs,
    };
  }

  /** Ethereum hashes are 0x + 64 hex; TRON transaction ids are 64 hex without a prefix. */
  txHash(uniqueKey: string): string {
    const digest = bytesToHex(sha256(utf8ToBytes(`strata-chain:${this.seed}:${this.network}:${uniqueKey}`)));
    return this.network === 'ERC20' ? `0x${digest}` : digest;
  }

  /** confirmations = height - includedHeight + 1, and 0 before the including block exists. */
  confirmationsOf(includedHeight: number, nowMs: number): number {
    const height = this.heightAt(nowMs);
    return height < includedHeight ? 0 : height - includedHeight + 1;
  }

  /** When a transaction included at `includedHeight` reaches the required confirmations. */
  confirmedAtMs(includedHeight: number): number {
    return this.blockTimeOf(includedHeight + this.params.confirmations - 1);
  }

  isConfirmed(includedHeight: number, nowMs: number): boolean {
    return this.confirmationsOf(includedHeight, nowMs) >= this.params.confirmations;
  }
}

export function createChains(
  seed: number,
  params: Readonly<Record<Network, Readonly<ChainParams>>>,
): Record<Network, SimulatedChain> {
  return {
    TRC20: new SimulatedChain('TRC20', params.TRC20, seed),
    ERC20: new SimulatedChain('ERC20', params.ERC20, seed),
  };
}
