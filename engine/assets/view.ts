/**
 * /api/account/assets as a pure function of the member's balances: the engine's handler (from the ledger)
 * and the device (from the replicated `balances` rows, src/features/trade/use-account.ts) use the same
 * code, so available, frozen and the valuations agree to the micro-unit. Coins are valued at the price
 * `priceOf` answers (the engine: the simulated last price; the device: its latest quotes); the contract
 * account adds the unrealised PnL of its open positions (position-figures.ts unrealisedTotalAt).
 */
import type { BalanceFigure } from '../accounts/figures';
import { SUB_ACCOUNTS, USDT, type SubAccount } from '../ledger/accounts';
import { formatAmount, mulDiv, SCALE, type Micro } from '../money';

export interface AssetLine {
  asset: string;
  available: string;
  frozen: string;
  /** USDT value of available + frozen at the mark price. */
  valuation: string;
}

export interface SubAccountView {
  account: SubAccount;
  /** USDT available / frozen in this account (coins are listed under `assets`). */
  available: string;
  frozen: string;
  assets: AssetLine[];
  /** Unrealised PnL of open positions margined from this account (contracts), else "0". */
  unrealisedPnl: string;
  valuation: string;
}

export interface AssetsView {
  accounts: SubAccountView[];
  totalAssets: string;
  /** Same total, named as SPEC.md §3 "total assets and valuation". */
  valuation: string;
  currency: 'USDT';
}

/** Price of one unit of a coin in micro-USDT; 0 when unknown. */
export type PriceOf = (asset: string) => Micro;

export interface Holding {
  sub: SubAccount;
  asset: string;
  available: Micro;
  frozen: Micro;
}

/** Every non-zero balance, grouped by sub-account and asset (unknown sub-accounts are left out). */
export function holdingsOf(rows: Iterable<BalanceFigure>): Holding[] {
  const byKey = new Map<string, Holding>();
  for (const row of rows) {
    const sub = row.sub as SubAccount;
    if (!SUB_ACCOUNTS.includes(sub)) continue;
    const key = `${sub}|${row.asset}`;
    const h = byKey.get(key) ?? { sub, asset: row.asset, available: 0n, frozen: 0n };
    if (row.frozen) h.frozen += row.amount;
    else h.available += row.amount;
    byKey.set(key, h);
  }
  return [...byKey.values()].filter((h) => h.available !== 0n || h.frozen !== 0n);
}

/** USDT value of `amount` of `asset`, rounded down to the micro-unit (the total never overstates). */
export function valueAt(asset: string, amount: Micro, priceOf: PriceOf): Micro {
  if (asset === USDT) return amount;
  return mulDiv(amount, priceOf(asset), SCALE, 'floor');
}

/**
 * The five sub-accounts with their coins and the total valuation. `contractPnl` is the unrealised PnL of
 * the member's open positions at the mark; an account's valuation never goes below zero.
 */
export function assetsView(rows: Iterable<BalanceFigure>, contractPnl: Micro, priceOf: PriceOf): AssetsView {
  const lines = holdingsOf(rows);
  let total = 0n;
  const accounts = SUB_ACCOUNTS.map((sub): SubAccountView => {
    const mine = lines.filter((l) => l.sub === sub);
    let value = 0n;
    const assetLines = mine.map((l) => {
      const v = valueAt(l.asset, l.available + l.frozen, priceOf);
      value += v;
      return {
        asset: l.asset,
        available: formatAmount(l.available),
        frozen: formatAmount(l.frozen),
        valuation: formatAmount(v),
      };
    });
    const usdt = mine.find((l) => l.asset === USDT);
    const unrealised: Micro = sub === 'contract' ? contractPnl : 0n;
    value += unrealised;
    if (value < 0n) value = 0n;
    total += value;
    return {
      account: sub,
      available: formatAmount(usdt?.available ?? 0n),
      frozen: formatAmount(usdt?.frozen ?? 0n),
      assets: assetLines,
      unrealisedPnl: formatAmount(unrealised),
      valuation: formatAmount(value),
    };
  });
  return { accounts, totalAssets: formatAmount(total), valuation: formatAmount(total), currency: 'USDT' };
}
