/**
 * Deposit and platform addresses, derived with the real algorithms (issue 3 item 5) watch-only from the
 * deposit wallet's account xpub (WatchOnlyBook, below: what the engine uses). The seed-based helpers
 * (hdRootFromSeed, AddressBook) remain for the algorithm's test vectors only; no address shown comes from
 * the seed any more (issue 11 item 4).
 * BIP-32 HD keys on secp256k1, BIP-44 paths per coin type, Ethereum's keccak-256 address with its EIP-55
 * checksum, and TRON's base58check form of the same 20 bytes behind the 0x41 prefix. Every primitive comes
 * from the audited @noble / @scure libraries; nothing here hashes by hand.
 */
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { hkdf } from '@noble/hashes/hkdf.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { HDKey } from '@scure/bip32';
import { ethereumAddress, tronAddress, type Network } from './encoding';

export { TRON_PREFIX, ethereumAddress, toChecksumAddress, tronAddress, tronBase58check } from './encoding';

export type { Network } from './encoding';
export { NETWORKS } from './encoding';

/** SLIP-44 coin types: TRON 195, Ethereum 60 (TRC-20 and ERC-20 tokens live at their chain's addresses). */
const COIN_TYPE: Record<Network, number> = { TRC20: 195, ERC20: 60 };

/**
 * BIP-44 account 0 holds the members' deposit addresses (address index = member index); account 1 holds the
 * platform's own addresses, so no member index can ever collide with a platform address.
 */
const MEMBER_ACCOUNT = 0;
const PLATFORM_ACCOUNT = 1;

/**
 * The BIP-32 master key of an engine. The numeric engine seed is expanded with HKDF-SHA256 into the 64-byte
 * seed BIP-32 expects, under a fixed domain label, so the same engine seed always gives the same addresses
 * and no other use of the seed can produce the same bytes.
 */
export function hdRootFromSeed(seed: number): HDKey {
  const material = hkdf(
    sha256,
    utf8ToBytes(`strata-engine-seed:${seed}`),
    utf8ToBytes('strata/chain'),
    utf8ToBytes('bip32-master-seed/v1'),
    64,
  );
  return HDKey.fromMasterSeed(material);
}

export function bip44Path(network: Network, account: number, index: number): string {
  if (!Number.isSafeInteger(index) || index < 0 || index >= 2 ** 31) {
    throw new RangeError(`BIP-44 address index out of range: ${index}`);
  }
  return `m/44'/${COIN_TYPE[network]}'/${account}'/0/${index}`;
}

/** The 20 bytes both networks share: the last 20 bytes of keccak-256 of the uncompressed key sans 0x04. */
export function accountBytesFromPublicKey(publicKey: Uint8Array): Uint8Array {
  const uncompressed = secp256k1.Point.fromBytes(publicKey).toBytes(false);
  return keccak_256(uncompressed.subarray(1)).subarray(12);
}

export function addressFromPublicKey(network: Network, publicKey: Uint8Array): string {
  const bytes = accountBytesFromPublicKey(publicKey);
  return network === 'ERC20' ? ethereumAddress(bytes) : tronAddress(bytes);
}

function derive(root: HDKey, network: Network, account: number, index: number): string {
  const key = root.derive(bip44Path(network, account, index));
  if (!key.publicKey) throw new Error('BIP-32 derivation produced no public key');
  return addressFromPublicKey(network, key.publicKey);
}

/** A member's exclusive deposit address: m/44'/<coin>'/0'/0/<memberIndex>. */
export function memberDepositAddress(root: HDKey, network: Network, memberIndex: number): string {
  return derive(root, network, MEMBER_ACCOUNT, memberIndex);
}

/** The platform's published address (site config walletAddress / ercAddress): m/44'/<coin>'/1'/0/0. */
export function platformAddress(root: HDKey, network: Network): string {
  return derive(root, network, PLATFORM_ACCOUNT, 0);
}

/**
 * Derives addresses for one engine and remembers them. The hardened part of each path
 * (m/44'/<coin>'/<account>'/0) is derived once per network and account, so a new member's address costs
 * one non-hardened child derivation instead of five.
 */
export class AddressBook {
  private readonly root: HDKey;
  private readonly parents = new Map<string, HDKey>();
  private readonly cache = new Map<string, string>();

  constructor(seed: number) {
    this.root = hdRootFromSeed(seed);
  }

  private parent(network: Network, account: number): HDKey {
    const key = `${network}:${account}`;
    let parent = this.parents.get(key);
    if (!parent) {
      parent = this.root.derive(`m/44'/${COIN_TYPE[network]}'/${account}'/0`);
      this.parents.set(key, parent);
    }
    return parent;
  }

  private address(network: Network, account: number, index: number): string {
    const cacheKey = `${network}:${account}:${index}`;
    let address = this.cache.get(cacheKey);
    if (address === undefined) {
      bip44Path(network, account, index); // range check
      const child = this.parent(network, account).deriveChild(index);
      if (!child.publicKey) throw new Error('BIP-32 derivation produced no public key');
      address = addressFromPublicKey(network, child.publicKey);
      this.cache.set(cacheKey, address);
    }
    return address;
  }

  member(network: Network, memberIndex: number): string {
    return this.address(network, MEMBER_ACCOUNT, memberIndex);
  }

  platform(network: Network): string {
    return this.address(network, PLATFORM_ACCOUNT, 0);
  }
}

/**
 * Key custody (docs/SERVER.md "Key custody"). A live server is given only WALLET_XPUB, the extended PUBLIC
 * key of BIP-44 account m/44'/195'/0' of the deposit wallet, and derives every deposit address watch-only
 * from it: member `i` at <xpub>/0/i, the platform at <xpub>/1/0. The TRC-20 and ERC-20 addresses are the
 * two encodings (TRON base58check, Ethereum EIP-55) of the same child public key, so one key pair (held by
 * the signer, never by the API server) controls both.
 */
export const WALLET_XPUB_PATH = "m/44'/195'/0'";
const MEMBER_BRANCH = 0;
const PLATFORM_BRANCH = 1;

/** The account key of WALLET_XPUB; refuses a private key and anything that is not an extended key. */
export function watchOnlyKey(xpub: string): HDKey {
  let key: HDKey;
  try {
    key = HDKey.fromExtendedKey(xpub.trim());
  } catch {
    throw new Error('WALLET_XPUB is not a valid BIP-32 extended public key (xpub...)');
  }
  if (key.privateKey) {
    throw new Error('WALLET_XPUB must be an extended PUBLIC key: the API server never holds a private key');
  }
  return key;
}

/** The account xpub of a wallet seed (the signer's side; tests derive their vectors with it). */
export function walletXpubFromSeed(seed: Uint8Array): string {
  return HDKey.fromMasterSeed(seed).derive(WALLET_XPUB_PATH).publicExtendedKey;
}

/**
 * Addresses a WatchOnlyBook remembers (the most recently used): one book lives as long as the server
 * process, and remembering every member's address would grow with the member count (~200 bytes each, per
 * network). A forgotten address is derived again (one child derivation) when asked for.
 */
export const ADDRESS_CACHE_LIMIT = 10_000;

/** Addresses derived watch-only from an account xpub, the recently used ones remembered. */
export class WatchOnlyBook {
  private readonly branches: HDKey[];
  private readonly cache = new Map<string, string>();

  constructor(
    xpub: string,
    private readonly limit = ADDRESS_CACHE_LIMIT,
  ) {
    const account = watchOnlyKey(xpub);
    this.branches = [account.deriveChild(MEMBER_BRANCH), account.deriveChild(PLATFORM_BRANCH)];
  }

  /** Addresses remembered now (at most `limit`). */
  get remembered(): number {
    return this.cache.size;
  }

  /** Whether member `index`'s address on `network` is remembered now. */
  remembers(network: Network, index: number): boolean {
    return this.cache.has(`${network}:${MEMBER_BRANCH}:${index}`);
  }

  private address(network: Network, branch: number, index: number): string {
    const cacheKey = `${network}:${branch}:${index}`;
    let address = this.cache.get(cacheKey);
    if (address !== undefined) {
      // Most recently used last: the Map's first key is the one to forget.
      this.cache.delete(cacheKey);
      this.cache.set(cacheKey, address);
    } else {
      bip44Path(network, 0, index); // range check
      const child = this.branches[branch]?.deriveChild(index);
      if (!child?.publicKey) throw new Error('BIP-32 derivation produced no public key');
      address = addressFromPublicKey(network, child.publicKey);
      if (this.cache.size >= this.limit) this.cache.delete(this.cache.keys().next().value as string);
      this.cache.set(cacheKey, address);
    }
    return address;
  }

  member(network: Network, memberIndex: number): string {
    return this.address(network, MEMBER_BRANCH, memberIndex);
  }

  platform(network: Network): string {
    return this.address(network, PLATFORM_BRANCH, 0);
  }
}
