/**
 * Contributions to a member's valuation that are not ledger balances: unrealised PnL of open positions.
 * Trading registers a provider here, so assets does not depend on trading's internals.
 */
import type { Ctx } from '../context';
import type { SubAccount } from '../ledger/accounts';
import type { Micro } from '../money';

type Provider = (ctx: Ctx, memberId: string) => Promise<Map<SubAccount, Micro>>;

const providers: Provider[] = [];

export function registerValuationProvider(provider: Provider): void {
  providers.push(provider);
}

export async function unrealisedByAccount(ctx: Ctx, memberId: string): Promise<Map<SubAccount, Micro>> {
  const out = new Map<SubAccount, Micro>();
  for (const provider of providers) {
    for (const [sub, value] of await provider(ctx, memberId)) out.set(sub, (out.get(sub) ?? 0n) + value);
  }
  return out;
}
