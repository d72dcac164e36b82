/**
 * Key custody (docs/SERVER.md "Key custody"): a live server refuses to start without WALLET_XPUB, derives
 * deposit addresses watch-only from it (the same addresses the wallet's private keys control), and a demo
 * database gets its own random key (never from SEED) whose addresses are marked as demo addresses.
 */
import { spawn } from 'node:child_process';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { hexToBytes } from '@noble/hashes/utils.js';
import { HDKey } from '@scure/bip32';
import { describe, expect, it } from 'vitest';
import {
  WALLET_XPUB_PATH,
  WatchOnlyBook,
  addressFromPublicKey,
  walletXpubFromSeed,
  watchOnlyKey,
} from '../../../engine/chain/addresses';
import { createEngine, manualClock } from '../../../engine/index';
import { harnessCalls } from '../harness';
import { signUp, startTestServer, T0, TEST_XPUB } from './serve';

// BIP-39 "abandon x11 about" with no passphrase (engine/chain/addresses.test.ts has its public vectors).
const ABANDON_SEED = hexToBytes(
  '5eb00bbddcf069084889a8ab9155568165f5c453ccb85e70811aaed6f6da5fc19a5ac40b389cd370d086206dec8aa6c43daea6690f20ad3d8d48b2d2ce9e38e4',
);

/** Runs server/main.ts in a child process until it exits (or is stopped after `ms`). */
function runMain(env: Record<string, string>, ms = 20_000): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      env: { PATH: process.env['PATH'] ?? '', STORAGE: 'memory', PORT: '0', LOG_LEVEL: 'silent', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), ms);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

describe('key custody', () => {
  it('K1 DEMO=false without WALLET_XPUB: the process exits 1 with a message naming WALLET_XPUB', async () => {
    const missing = await runMain({ DEMO: 'false' });
    expect(missing.code).toBe(1);
    expect(missing.out).toMatch(/WALLET_XPUB is required/);
    // A private extended key is refused too: the API server never holds one.
    const xprv = HDKey.fromMasterSeed(ABANDON_SEED).derive(WALLET_XPUB_PATH).privateExtendedKey;
    const secret = await runMain({ DEMO: 'false', WALLET_XPUB: xprv });
    expect(secret.code).toBe(1);
    expect(secret.out).toMatch(/WALLET_XPUB must be an extended PUBLIC key/);
    expect(secret.out).not.toContain(xprv);
  }, 60_000);

  it('K2 watch-only addresses from the xpub are those the private keys of the same wallet control', () => {
    const xpub = walletXpubFromSeed(ABANDON_SEED);
    expect(xpub).toMatch(/^xpub/);
    expect(watchOnlyKey(xpub).privateKey).toBeNull();
    const book = new WatchOnlyBook(xpub);
    const root = HDKey.fromMasterSeed(ABANDON_SEED);
    // Member 0 is m/44'/195'/0'/0/0: the TRON address every wallet derives from this mnemonic.
    expect(book.member('TRC20', 0)).toBe('TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH');
    for (const [branch, index, address] of [
      [0, 0, book.member('ERC20', 0)],
      [0, 100_001, book.member('ERC20', 100_001)],
      [0, 100_001, book.member('TRC20', 100_001)],
      [1, 0, book.platform('TRC20')],
      [1, 0, book.platform('ERC20')],
    ] as const) {
      const child = root.derive(`${WALLET_XPUB_PATH}/${branch}/${index}`);
      const publicKey = secp256k1.getPublicKey(child.privateKey as Uint8Array, true);
      const network = address.startsWith('0x') ? 'ERC20' : 'TRC20';
      expect(address).toBe(addressFromPublicKey(network, publicKey));
    }
    // The platform's key is on its own branch: no member index can ever reach it.
    expect(book.platform('ERC20')).not.toBe(book.member('ERC20', 0));
  });

  it('K3 two demo databases with the same SEED get different platform keys; their addresses say demo', async () => {
    const open = () => createEngine({ storage: 'memory', seed: 1, clock: manualClock(T0) });
    const [a, b] = [await open(), await open()];
    try {
      const site = async (engine: typeof a) => (await harnessCalls(engine).get('/api/site/getsite')).data;
      const [sa, sb] = [await site(a), await site(b)];
      expect(sa.walletAddress).toMatch(/^T/);
      expect(sa.walletAddress).not.toBe(sb.walletAddress);
      expect(sa.ercAddress).not.toBe(sb.ercAddress);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('K4 a live server publishes the xpub platform address and member addresses not marked demo', async () => {
    const server = await startTestServer();
    try {
      const book = new WatchOnlyBook(TEST_XPUB);
      const site = (await server.get('/api/site/getsite')).data;
      expect(site).toMatchObject({ walletAddress: book.platform('TRC20'), demo: false });
      const ann = await signUp(server, 'ann');
      const address = await server.call('/api/recharge/address', { network: 'ERC20' }, ann);
      expect(address.data).toMatchObject({ address: book.member('ERC20', Number(ann.id)), demo: false });
    } finally {
      await server.close();
    }
    const demo = await startTestServer({ config: { demo: true, walletXpub: undefined } });
    try {
      const bob = await signUp(demo, 'bob');
      const address = await demo.call('/api/recharge/address', { network: 'TRC20' }, bob);
      expect(address.data).toMatchObject({ demo: true });
      expect(address.data.address).not.toBe(new WatchOnlyBook(TEST_XPUB).member('TRC20', Number(bob.id)));
    } finally {
      await demo.close();
    }
  });
});
