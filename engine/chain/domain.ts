/**
 * The chain domain: the deposit key, simulated chains, the member's exclusive addresses, and the platform
 * addresses the site config publishes (written to meta at every engine open).
 *
 * Key custody (docs/SERVER.md): addresses are derived watch-only from an account xpub. A live server is
 * given it (config.walletXpub, from WALLET_XPUB); otherwise the engine generates a demo key at random (never
 * from the seed) the first time a database opens, keeps only its xpub in meta, and marks every address it
 * shows as a demo address. The seed only drives the simulation.
 */
import type { Ctx } from '../context';
import type { Domain } from '../routes';
import { meta } from '../site/handlers';
import { WatchOnlyBook, walletXpubFromSeed, type Network } from './addresses';
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

// Address derivation costs a few curve multiplications per level: one book per xpub for the process.
const books = new Map<string, WatchOnlyBook>();

export function addressBook(xpub: string): WatchOnlyBook {
  let book = books.get(xpub);
  if (!book) {
    book = new WatchOnlyBook(xpub);
    books.set(xpub, book);
  }
  return book;
}

/** This database's deposit key (written at every engine open by the domain's init). */
export async function walletOf(ctx: Ctx): Promise<{ book: WatchOnlyBook; demo: boolean }> {
  const xpub = (await ctx.tx.get(meta, XPUB_KEY))?.value;
  if (!xpub) throw new Error('The deposit key is not initialised');
  return { book: addressBook(xpub), demo: (await ctx.tx.get(meta, KIND_KEY))?.value !== 'xpub' };
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
    let xpub = ctx.config.walletXpub.trim();
    let kind = 'xpub';
    if (xpub === '') {
      kind = 'demo';
      const stored = await ctx.tx.get(meta, XPUB_KEY);
      const storedKind = (await ctx.tx.get(meta, KIND_KEY))?.value;
      // A database that once ran on a real xpub never falls back to a demo key silently.
      if (stored && storedKind === 'xpub') {
        throw new Error('This database uses a real deposit key: start it with WALLET_XPUB (walletXpub)');
      }
      // Only the public half of the random demo key is kept: nothing can spend what is paid to it.
      xpub = stored?.value ?? walletXpubFromSeed(ctx.entropy(64));
    }
    for (const [key, value] of [
      [XPUB_KEY, xpub],
      [KIND_KEY, kind],
    ] as const) {
      if ((await ctx.tx.get(meta, key))?.value !== value) ctx.tx.put(meta, { id: key, value });
    }
    // The platform's addresses are derived once per deposit key. Deriving costs curve multiplications, and
    // the first in a process builds the curve's tables (~50 ms): an engine opening again on the same key (a
    // returning member's demo worker, a restarted server) reads them instead.
    const rows = await Promise.all(PLATFORM_ADDRESSES.map(([key]) => ctx.tx.get(meta, key)));
    const derivedFor = (await ctx.tx.get(meta, PLATFORM_FOR_KEY))?.value;
    if (derivedFor === xpub && rows.every((row) => row?.value)) return;
    const book = addressBook(xpub);
    PLATFORM_ADDRESSES.forEach(([key, network], i) => {
      const value = book.platform(network);
      if (rows[i]?.value !== value) ctx.tx.put(meta, { id: key, value });
    });
    ctx.tx.put(meta, { id: PLATFORM_FOR_KEY, value: xpub });
  },
};
