/**
 * Private keys the whole world knows: the accounts of the development mnemonics that Hardhat and ganache
 * print at every start. A hot wallet holding one of them can be emptied by anybody watching its chain, so the
 * signer refuses them on a real chain and warns about them on a development chain (server/signer/service.ts).
 * The keys are derived here from the public mnemonics (BIP-39 seed, BIP-44 path m/44'/60'/0'/0/i) rather than
 * listed.
 */
import { pbkdf2Sync } from 'node:crypto';
import { HDKey } from '@scure/bip32';
import { bytesToHex } from '@noble/hashes/utils.js';

const DEVELOPMENT_MNEMONICS: ReadonlyArray<{ name: string; mnemonic: string; accounts: number }> = [
  { name: 'Hardhat', mnemonic: 'test test test test test test test test test test test junk', accounts: 20 },
  {
    name: 'ganache --deterministic',
    mnemonic: 'myth like bonus scare over problem client lizard pioneer submit female collect',
    accounts: 10,
  },
];

/** Chain ids of local development nodes (Hardhat and Anvil 31337, ganache 1337). */
export const DEVELOPMENT_CHAIN_IDS: ReadonlySet<number> = new Set([31_337, 1_337]);

let known: Map<string, string> | undefined;

/** BIP-39's seed of a mnemonic without a passphrase: PBKDF2-HMAC-SHA512, 2048 rounds, salt "mnemonic". */
function seedOf(mnemonic: string): Uint8Array {
  return pbkdf2Sync(mnemonic.normalize('NFKD'), 'mnemonic', 2048, 64, 'sha512');
}

function publicKeys(): Map<string, string> {
  if (known) return known;
  known = new Map();
  for (const { name, mnemonic, accounts } of DEVELOPMENT_MNEMONICS) {
    const account = HDKey.fromMasterSeed(seedOf(mnemonic)).derive("m/44'/60'/0'/0");
    for (let i = 0; i < accounts; i++) {
      const key = account.deriveChild(i).privateKey;
      if (key) known.set(bytesToHex(key), `${name} account ${i}`);
    }
  }
  return known;
}

/** Which public development account `key` (hex, `0x` optional) is, or undefined for a key of one's own. */
export function publicDevelopmentKey(key: string): string | undefined {
  return publicKeys().get(key.replace(/^0x/, '').toLowerCase());
}
