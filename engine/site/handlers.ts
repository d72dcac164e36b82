/**
 * GET /api/site/getsite: platform deposit addresses, customer-service contact, the demo flag, whether
 * quick buy is available (a payment provider is configured: engine/counterparties.ts) and the business
 * constants screens check before sending (`limits`, from the engine's config).
 * Addresses come from config when set, else from the meta records the chain domain writes
 * (`site.walletAddress`, `site.ercAddress`; engine/chain/domain.ts platformAddress, which derives them the
 * first time they are asked for), so the site never shows an address nobody derived.
 */
import { platformAddress } from '../chain/domain';
import type { SiteConfig } from '../contract';
import { formatAmount } from '../money';
import { handler } from '../router';
import type { Domain } from '../routes';

export { meta, type MetaRow } from './meta';

export const siteDomain: Domain = {
  name: 'site',
  handlers: {
    '/api/site/getsite': handler({
      method: 'GET',
      auth: false,
      run: async (ctx): Promise<SiteConfig> => ({
        walletAddress: ctx.config.walletAddress || (await platformAddress(ctx, 'TRC20')),
        ercAddress: ctx.config.ercAddress || (await platformAddress(ctx, 'ERC20')),
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
