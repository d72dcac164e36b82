/**
 * The wire contract and the router agree: every path of the core's part of ContractMap is answered by the
 * engine, and the two GET calls of API.md answer GET only.
 */
import { describe, expect, it } from 'vitest';
import type { CoreContract } from '../../engine/wire';
import { harness } from './harness';

/** A full Record: adding a path to CoreContract without listing it here fails the type check. */
const CORE: Record<keyof CoreContract, true> = {
  '/api/index/register': true,
  '/api/user/getuser': true,
  '/api/user/editPsw': true,
  '/api/user/edituserPsw': true,
  '/api/index/question': true,
  '/api/index/forget': true,
  '/api/index/forgetKey': true,
  '/api/user/uploads': true,
  '/api/Recharges/uploads': true,
  '/api/user/cert': true,
  '/api/transfer/submit': true,
  '/api/transfer/list': true,
  '/api/Viplist/getlist': true,
  '/api/Viplist/Buyvip': true,
  '/api/Viplist/refund': true,
  '/api/Viplist/records': true,
};

describe('contract', () => {
  it('G4 every core contract path is routed; GET-only calls refuse POST with 404', async () => {
    const h = await harness();
    const routed = new Set(h.engine.diagnostics.paths());
    for (const path of [...Object.keys(CORE), '/api/index/login', '/api/index/logout'])
      expect(routed, path).toContain(path);
    for (const path of ['/index/index/verify', '/api/site/getsite']) {
      expect((await h.engine.handle({ method: 'POST', path })).body.code, path).toBe(404);
      expect((await h.engine.handle({ method: 'GET', path })).body.code, path).toBe(0);
    }
  });

  it('site config answers the business constants from the engine config, so the app keeps no copy', async () => {
    const h = await harness({ config: { minTransfer: '2.5', minWithdraw: '12' } });
    const site = (await h.engine.handle({ method: 'GET', path: '/api/site/getsite' })).body.data;
    expect(site).toMatchObject({
      limits: {
        minTransfer: '2.5',
        minWithdraw: '12',
        withdrawFee: { TRC20: '1', ERC20: '5' },
        vipLevels: expect.arrayContaining([{ level: 1, deposit: '50' }]) as unknown,
      },
    });
  });
});
