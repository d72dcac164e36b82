/**
 * The chain domain: per-engine address book and simulated chains, the member's exclusive addresses, and
 * the platform addresses the site config publishes (written to meta at every engine open).
 */
import type { Ctx } from '../context';
import type { Domain } from '../routes';
import { meta } from '../site/handlers';
import { AddressBook, type Network } from './addresses';
import { createChains, type SimulatedChain } from './simulator';
import { depositAddresses, depositAddressId, type DepositAddressRow } from './tables';

// Address derivation costs a few curve multiplications per level: one book per seed for the process.
const books = new Map<number, AddressBook>();

export function addressBook(seed: number): AddressBook {
  let book = books.get(seed);
  if (!book) {
    book = new AddressBook(seed);
    books.set(seed, book);
  }
  return book;
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
  const address = addressBook(ctx.seed).member(network, Number(memberId));
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
    const book = addressBook(ctx.seed);
    for (const [key, network] of [
      ['site.walletAddress', 'TRC20'],
      ['site.ercAddress', 'ERC20'],
    ] as const) {
      const value = book.platform(network);
      if ((await ctx.tx.get(meta, key))?.value !== value) ctx.tx.put(meta, { id: key, value });
    }
  },
};
