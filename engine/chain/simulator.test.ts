import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../config';
import { SimulatedChain, createChains as create } from './simulator';

const CHAIN_DEFAULTS = defaultConfig.networks;
const createChains = (seed: number) => create(seed, CHAIN_DEFAULTS);

const T0 = 1_700_000_000_000;

describe('C5 simulated chains follow API.md block times and confirmations', () => {
  it('C5 defaults: TRC20 3 s / 19 / 1 USDT, ERC20 12 s / 12 / 5 USDT', () => {
    expect(CHAIN_DEFAULTS.TRC20).toEqual({ blockMs: 3_000, confirmations: 19, withdrawFee: 1_000_000n });
    expect(CHAIN_DEFAULTS.ERC20).toEqual({ blockMs: 12_000, confirmations: 12, withdrawFee: 5_000_000n });
  });

  it('C5 height is floor((now - genesis) / blockTime)', () => {
    const chain = new SimulatedChain('TRC20', CHAIN_DEFAULTS.TRC20, 1, 1_000);
    expect(chain.heightAt(1_000)).toBe(0);
    expect(chain.heightAt(3_999)).toBe(0);
    expect(chain.heightAt(4_000)).toBe(1);
    expect(chain.heightAt(31_000)).toBe(10);
  });

  it('C5 a payment is included in the next block; confirmations = height - included + 1', () => {
    const { TRC20 } = createChains(1);
    const tx = TRC20.send('dep-1', T0 + 1);
    expect(tx.includedHeight).toBe(TRC20.heightAt(T0 + 1) + 1);
    expect(TRC20.confirmationsOf(tx.includedHeight, T0 + 1)).toBe(0);
    const included = TRC20.blockTimeOf(tx.includedHeight);
    expect(TRC20.confirmationsOf(tx.includedHeight, included - 1)).toBe(0);
    expect(TRC20.confirmationsOf(tx.includedHeight, included)).toBe(1);
    expect(TRC20.confirmationsOf(tx.includedHeight, included + 3_000 * 5)).toBe(6);
  });

  it('C5 a payment is confirmed exactly when its N-th confirmation appears', () => {
    for (const chain of Object.values(createChains(9))) {
      const tx = chain.send('x', T0 + 500);
      const at = chain.confirmedAtMs(tx.includedHeight);
      expect(chain.confirmationsOf(tx.includedHeight, at)).toBe(chain.params.confirmations);
      expect(chain.isConfirmed(tx.includedHeight, at - 1)).toBe(false);
      expect(chain.isConfirmed(tx.includedHeight, at)).toBe(true);
      // Between one and N block times after sending, whatever the phase within a block.
      expect(at - (T0 + 500)).toBeGreaterThan((chain.params.confirmations - 1) * chain.params.blockMs);
      expect(at - (T0 + 500)).toBeLessThanOrEqual(chain.params.confirmations * chain.params.blockMs);
    }
  });

  it('C6 transaction hashes are deterministic per seed and key, in each network format', () => {
    const a = createChains(5);
    const b = createChains(5);
    const c = createChains(6);
    expect(a.ERC20.txHash('w-1')).toMatch(/^0x[0-9a-f]{64}$/);
    expect(a.TRC20.txHash('w-1')).toMatch(/^[0-9a-f]{64}$/);
    expect(a.ERC20.txHash('w-1')).toBe(b.ERC20.txHash('w-1'));
    expect(a.ERC20.txHash('w-1')).not.toBe(a.ERC20.txHash('w-2'));
    expect(a.ERC20.txHash('w-1')).not.toBe(c.ERC20.txHash('w-1'));
    expect(a.TRC20.txHash('w-1')).not.toBe(a.ERC20.txHash('w-1').slice(2));
  });

  it('refuses nonsensical parameters', () => {
    expect(() => new SimulatedChain('TRC20', { blockMs: 0, confirmations: 1 }, 1)).toThrow();
    expect(() => new SimulatedChain('TRC20', { blockMs: 1, confirmations: 0 }, 1)).toThrow();
  });
});
