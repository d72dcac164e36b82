/**
 * Address book rules (docs/RULES.md W7-W12) shared by its calls and the withdrawal's submission: what a
 * destination address is to the platform (the member's own deposit address, another member's, the platform's
 * deposit wallet, or none of them), and whether the member's whitelist lets a withdrawal go there now.
 */
import type { MemberRow } from '../accounts/tables';
import type { Network } from '../chain/addresses';
import { ownerOfAddress, walletOf } from '../chain/domain';
import type { Ctx } from '../context';
import { toSeconds } from '../context';
import { Codes, fail } from '../errors';
import { meta } from '../site/handlers';
import { addressBookSettings, savedAddresses, type SavedAddressRow } from './tables';

/** The most characters of a label (code points). */
export const LABEL_MAX = 40;

/**
 * What an address is to the platform:
 * - 'own': the member's own deposit address (a withdrawal there pays the fee to come back as a deposit);
 * - 'member': another member's deposit address (an internal transfer is free and instant);
 * - 'platform': the platform's own deposit wallet (the site's address for manual deposits);
 * - null: an outside address.
 */
export type AddressKind = 'own' | 'member' | 'platform' | null;

const SITE_KEYS: Record<Network, { config: 'walletAddress' | 'ercAddress'; meta: string }> = {
  TRC20: { config: 'walletAddress', meta: 'site.walletAddress' },
  ERC20: { config: 'ercAddress', meta: 'site.ercAddress' },
};

const same = (network: Network, a: string, b: string) =>
  network === 'ERC20' ? a.toLowerCase() === b.toLowerCase() : a === b;

/** `address` in canonical form (requireAddress's answer). */
export async function addressKind(
  ctx: Ctx,
  memberId: string,
  network: Network,
  address: string,
): Promise<AddressKind> {
  // The member's own address is derived (BIP-44 index = member id), whether or not it was handed out yet.
  const own = (await walletOf(ctx)).book.member(network, Number(memberId));
  if (same(network, own, address)) return 'own';
  const owner = await ownerOfAddress(ctx, network, address);
  if (owner === memberId) return 'own';
  if (owner !== undefined) return 'member';
  const keys = SITE_KEYS[network];
  const site = ctx.config[keys.config] || ((await ctx.tx.get(meta, keys.meta))?.value ?? '');
  if (site && same(network, site, address)) return 'platform';
  return null;
}

/** 6121 unless the label is 1-40 characters with no control characters; the trimmed label otherwise. */
export function requireLabel(label: string): string {
  const trimmed = label.trim();
  const length = [...trimmed].length;
  if (length === 0 || length > LABEL_MAX || !/^[^\p{C}]+$/u.test(trimmed)) {
    throw fail(Codes.addressLabelInvalid, `Name the address with 1 to ${LABEL_MAX} characters`, {
      max: LABEL_MAX,
    });
  }
  return trimmed;
}

export async function whitelistOn(ctx: Ctx, memberId: string): Promise<boolean> {
  return (await ctx.tx.get(addressBookSettings, memberId))?.whitelist === true;
}

export async function savedEntry(
  ctx: Ctx,
  memberId: string,
  network: Network,
  address: string,
): Promise<SavedAddressRow | undefined> {
  const [row] = await ctx.tx.query(savedAddresses, 'entry', `${memberId}:${network}:${address}`);
  return row;
}

/**
 * The address book's checks on a withdrawal's destination (canonical form), before the security key:
 * 6124 the member's own deposit address; with the whitelist on, 6126 an address not saved for this network
 * and 6127 a saved address still in its hold (`data.usableAt`, Unix seconds).
 */
export async function requireDestination(
  ctx: Ctx,
  member: MemberRow,
  network: Network,
  address: string,
): Promise<void> {
  if ((await addressKind(ctx, member.id, network, address)) === 'own') {
    throw fail(
      Codes.ownDepositAddress,
      'This is your own deposit address: a withdrawal there would come back',
    );
  }
  if (!(await whitelistOn(ctx, member.id))) return;
  const entry = await savedEntry(ctx, member.id, network, address);
  if (!entry) {
    throw fail(
      Codes.addressNotWhitelisted,
      'Your whitelist is on: withdraw only to an address saved in your address book',
      { network },
    );
  }
  if (entry.usableAt > ctx.now) {
    throw fail(Codes.addressOnHold, 'This saved address is still on hold', {
      id: entry.id,
      usableAt: toSeconds(entry.usableAt),
    });
  }
}
