/**
 * Ledger account names. Every balance in the engine is the sum of postings to one of these, per asset.
 * - user:<memberId>:<sub>          a member's available money in sub-account `sub`
 * - user:<memberId>:<sub>:frozen   money on hold (only ever moved by Ledger.hold/release/capture)
 * - platform:<name>                the operator's own accounts (fees, VIP trial fees, VIP deposits are NOT
 *                                  here: they stay the member's, frozen)
 * - world:<network>                the outside world per network; goes negative as money comes in
 * - house:<name>                   simulated counterparties (markets); may go negative
 */

export const SUB_ACCOUNTS = ['cash', 'fund', 'contract', 'options', 'financial'] as const;
export type SubAccount = (typeof SUB_ACCOUNTS)[number];
/**
 * The accounts a member may move money between (POST /api/account/transfer). The financial sub-account only
 * ever holds subscribed principal, frozen for its term, so it is neither a source nor a destination.
 */
export const MOVABLE_ACCOUNTS = [
  'cash',
  'fund',
  'contract',
  'options',
] as const satisfies readonly SubAccount[];

export const USDT = 'USDT';

export const acct = {
  user: (memberId: string, sub: SubAccount = 'cash'): string => `user:${memberId}:${sub}`,
  frozen: (memberId: string, sub: SubAccount = 'cash'): string => `user:${memberId}:${sub}:frozen`,
  platform: (name: string): string => `platform:${name}`,
  world: (network: string): string => `world:${network}`,
  house: (name: string): string => `house:${name}`,
};

/** The member owning an account, if it is a member account. */
export function ownerOf(account: string): string | undefined {
  if (!account.startsWith('user:')) return undefined;
  return account.split(':')[1];
}

/** Member accounts may never go negative (docs/RULES.md L4); the others are the outside's mirror image. */
export function mustStayNonNegative(account: string): boolean {
  return account.startsWith('user:') || account.startsWith('platform:');
}

export function isFrozenAccount(account: string): boolean {
  return account.endsWith(':frozen');
}
