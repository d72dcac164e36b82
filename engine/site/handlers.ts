/**
 * GET /api/site/getsite: platform deposit addresses, customer-service contact, the demo flag, whether
 * quick buy is available (a payment provider is configured: engine/counterparties.ts) and the business
 * constants screens check before sending (`limits`, from the engine's config).
 * Addresses come from config when set, else from the meta records the chain domain writes at init
 * (`site.walletAddress`, `site.ercAddress`), so the site never shows an address nobody derived.
 */
import type { SiteConfig } from '../contract';
import { formatAmount } from '../money';
import { handler } from '../router';
import type { Domain } from '../routes';
import { defineTable } from '../store/port';

export interface MetaRow {
  id: string;
  value: string;
}

/** Small named values shared between domains (e.g. platform addresses). */
export const meta = defineTable<MetaRow>('meta');

export const siteDomain: Domain = {
  name: 'site',
  handlers: {
    '/api/site/getsite': handler({
      method: 'GET',
      auth: false,
      run: async (ctx): Promise<SiteConfig> => ({
        walletAddress:
          ctx.config.walletAddress || ((await ctx.tx.get(meta, 'site.walletAddress'))?.value ?? ''),
        ercAddress: ctx.config.ercAddress || ((await ctx.tx.get(meta, 'site.ercAddress'))?.value ?? ''),
        customerservice: ctx.config.customerService,
        demo: ctx.config.demo,
        limits: {
          minTransfer: formatAmount(ctx.config.minTransfer),
          minWithdraw: formatAmount(ctx.config.minWithdraw),
          withdrawFee: {
            TRC20: formatAmount(ctx.config.networks.TRC20.withdrawFee),
            ERC20: formatAmount(ctx.config.networks.ERC20.withdrawFee),
          },
          vipLevels: ctx.config.vipLevels.map((v) => ({ level: v.level, deposit: formatAmount(v.deposit) })),
          spotFeeBps: ctx.config.spotFeeBps,
          contractFeeBps: ctx.config.contractFeeBps,
          maxLeverage: ctx.config.maxLeverage,
        },
        quickBuy: ctx.counterparties.payments !== null,
      }),
    }),
  },
};
