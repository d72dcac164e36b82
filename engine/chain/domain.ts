/**
 * The chain domain: the deposit key, simulated chains, the member's exclusive addresses, and the platform
 * addresses the site config publishes. Addresses are derived watch-only from an account xpub: a live
 * server's WALLET_XPUB, else a demo key generated at random (never from the seed; only its xpub kept, every
 * address marked as a demo address) the first time a call needs it. The derivation code
 * (engine/chain/addresses.ts) loads with the first call that derives. docs/SERVER.md "Key custody",
 * docs/DECISIONS.md "Chains, deposits and withdrawals".
 */
import type { Ctx } from '../context';
import type { Domain } from '../routes';
import { meta } from '../site/meta';
import type * as Addresses from './addresses';
import type { Network, WatchOnlyBook } from './addresses';
import { createChains, type SimulatedChain } from './simulator';
import { depositAddresses, depositAddressId, type DepositAddressRow } from './tables';

const XPUB_KEY = 'chain.walletXpub';
const KIND_KEY = 'chain.walletKind';
/** The deposit key the stored platform addresses were derived from. */
const PLATFORM_FOR_KEY = 'chain.platformXpub';
/** Where the site config's platform addresses are kept (engine/site/handlers.ts reads them). */
const PLATFORM_ADDRESSES = [
  ['site.walletAddress', 'TRC20'],
  ['site.ercAddress', 'ERC20'],
] as const;

let chainCode: Promise<typeof Addresses> | null = null;
/** The derivation code, loaded once per process by the first call that needs it. */
function addresses(): Promise<typeof Addresses> {
  chainCode ??= import('./addresses');
  return chainCode;
}

// Address derivation costs a few curve multiplications per level: one book per xpub for the process.
const books = new Map<string, WatchOnlyBook>();

export async function addressBook(xpub: string): Promise<WatchOnlyBook> {
  let book = books.get(xpub);
  if (!book) {
    const { WatchOnlyBook } = await addresses();
    book = books.get(xpub) ?? new WatchOnlyBook(xpub);
    books.set(xpub, book);
  }
  return book;
}

/**
 * This database's deposit key, made now if it has none yet (a demo database's first call that needs it: a
 * random key, of which only the xpub is kept), with the platform addresses derived from it in meta.
 */
async function ensureWallet(ctx: Ctx): Promise<{ xpub: string; demo: boolean }> {
  let xpub = (await ctx.tx.get(meta, XPUB_KEY))?.value;
  let kind = (await ctx.tx.get(meta, KIND_KEY))?.value;
  if (!xpub) {
    // Only a demo database has no key here: init stores a configured one.
    const { walletXpubFromSeed } = await addresses();
    // Only the public half of the random demo key is kept: nothing can spend what is paid to it.
    xpub = walletXpubFromSeed(ctx.entropy(64));
    kind = 'demo';
    ctx.tx.put(meta, { id: XPUB_KEY, value: xpub });
    ctx.tx.put(meta, { id: KIND_KEY, value: kind });
  }
  await ensurePlatformAddresses(ctx, xpub);
  return { xpub, demo: kind !== 'xpub' };
}

/**
 * The platform's addresses are derived once per deposit key. Deriving costs curve multiplications, and the
 * first in a process builds the curve's tables (~50 ms): an engine opening again on the same key (a
 * returning member's demo worker, a restarted server) reads them instead.
 */
async function ensurePlatformAddresses(ctx: Ctx, xpub: string): Promise<void> {
  const rows = await Promise.all(PLATFORM_ADDRESSES.map(([key]) => ctx.tx.get(meta, key)));
  const derivedFor = (await ctx.tx.get(meta, PLATFORM_FOR_KEY))?.value;
  if (derivedFor === xpub && rows.every((row) => row?.value)) return;
  const book = await addressBook(xpub);
  PLATFORM_ADDRESSES.forEach(([key, network], i) => {
    const value = book.platform(network);
    if (rows[i]?.value !== value) ctx.tx.put(meta, { id: key, value });
  });
  ctx.tx.put(meta, { id: PLATFORM_FOR_KEY, value: xpub });
}

/** This database's deposit key (made by the first call that needs it, see ensureWallet). */
export async function walletOf(ctx: Ctx): Promise<{ book: WatchOnlyBook; demo: boolean }> {
  const { xpub, demo } = await ensureWallet(ctx);
  return { book: await addressBook(xpub), demo };
}

/** The platform's published address on `network` (the site config's walletAddress / ercAddress). */
export async function platformAddress(ctx: Ctx, network: Network): Promise<string> {
  await ensureWallet(ctx);
  const key = PLATFORM_ADDRESSES.find(([, n]) => n === network)?.[0] ?? '';
  return (await ctx.tx.get(meta, key))?.value ?? '';
}

export function chainOf(ctx: Ctx, network: Network): SimulatedChain {
  return createChains(ctx.seed, ctx.config.networks)[network];
}

/**
 * The member's exclusive deposit address on `network`, persisted the first time it is handed out: from
 * then on a payment to it is credited to the member (docs/RULES.md D1). The BIP-44 address index is the
 * member's numeric id, so the address is the same on every device that runs the same seed.
 */
export async function memberAddress(
  ctx: Ctx,
  memberId: string,
  network: Network,
): Promise<DepositAddressRow> {
  const [existing] = await ctx.tx.query(depositAddresses, 'member', `${memberId}:${network}`);
  if (existing) return existing;
  const address = (await walletOf(ctx)).book.member(network, Number(memberId));
  const row: DepositAddressRow = {
    id: depositAddressId(network, address),
    memberId,
    network,
    address,
    createdAt: ctx.now,
  };
  ctx.tx.put(depositAddresses, row);
  return row;
}

/** Who owns `address` on `network` (canonical form), if it was ever handed out. */
export async function ownerOfAddress(
  ctx: Ctx,
  network: Network,
  address: string,
): Promise<string | undefined> {
  return (await ctx.tx.get(depositAddresses, depositAddressId(network, address)))?.memberId;
}

export const chainDomain: Domain = {
  name: 'chain',
  init: async (ctx) => {
    const xpub = ctx.config.walletXpub.trim();
    if (xpub === '') {
      // A database that once ran on a real xpub never falls back to a demo key silently.
      const stored = await ctx.tx.get(meta, XPUB_KEY);
      if (stored && (await ctx.tx.get(meta, KIND_KEY))?.value === 'xpub') {
        throw new Error('This database uses a real deposit key: start it with WALLET_XPUB (walletXpub)');
      }
      // A demo database's key is made by the first call that needs it (ensureWallet).
      return;
    }
    for (const [key, value] of [
      [XPUB_KEY, xpub],
      [KIND_KEY, 'xpub'],
    ] as const) {
      if ((await ctx.tx.get(meta, key))?.value !== value) ctx.tx.put(meta, { id: key, value });
    }
    await ensurePlatformAddresses(ctx, xpub);
  },
};
