/**
 * The wire contract binds both sides at the type level (issue 15, item 1): a handler registered for path P
 * must accept P's body and answer P's data; the app's client only calls contract paths, with their bodies,
 * and gets their data. Each `@ts-expect-error` below is a line that MUST fail the type check (tsc reports an
 * unused directive otherwise), so `npm run typecheck` is the real test; the runtime assertions only keep
 * vitest honest about the file being loaded.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import type { ContractHandlers } from '../../engine/router';
import { handler, reply } from '../../engine/router';
import type { DataOf } from '../../engine/index';
import type { ApiClient } from '../../src/api/client';

const site = (extra: Partial<DataOf<'/api/site/getsite'>> = {}): DataOf<'/api/site/getsite'> => ({
  walletAddress: 'T',
  ercAddress: '0x',
  customerservice: 'help',
  demo: true,
  quickBuy: true,
  limits: {
    minTransfer: '1',
    minWithdraw: '10',
    withdrawFee: { TRC20: '1', ERC20: '5' },
    vipLevels: [],
    spotFeeBps: 10,
    contractFeeBps: 5,
    maxLeverage: 100,
  },
  ...extra,
});

describe('engine handlers are typed from ContractMap', () => {
  it('accepts a handler that answers its path data', () => {
    const ok: ContractHandlers = {
      '/api/site/getsite': handler({ method: 'GET', auth: false, run: async () => site() }),
      '/api/order/cancel': handler({
        auth: true,
        body: z.strictObject({ id: z.union([z.string(), z.number()]) }),
        run: async () => {
          throw new Error('not run');
        },
      }),
    };
    expect(Object.keys(ok)).toHaveLength(2);
  });

  it('refuses an answer with a renamed field', () => {
    const bad: ContractHandlers = {
      // @ts-expect-error customerService is not the contract's customerservice
      '/api/site/getsite': handler({
        method: 'GET',
        auth: false,
        run: async () => {
          const { customerservice, ...rest } = site();
          return { ...rest, customerService: customerservice };
        },
      }),
    };
    expect(bad).toBeDefined();
  });

  it('refuses an answer with a field of the wrong type, also inside a Reply', () => {
    const bad: ContractHandlers = {
      // @ts-expect-error demo is a boolean on the wire
      '/api/site/getsite': handler({
        method: 'GET',
        auth: false,
        run: async () => ({ ...site(), demo: 'yes' }),
      }),
      // @ts-expect-error a Reply carries the path's data too: Buyvip answers { vip, deposit }
      '/api/Viplist/Buyvip': handler({
        auth: true,
        body: z.strictObject({ level: z.union([z.number(), z.string()]), key: z.string() }),
        run: async () => reply(0, { level: 'VIP1', deposit: '0' }, 'ok'),
      }),
    };
    expect(bad).toBeDefined();
  });

  it('refuses a schema that does not accept the contract body', () => {
    const bad: ContractHandlers = {
      // @ts-expect-error the contract sends bankName, the schema wants bank
      '/api/bank/add': handler({
        auth: true,
        body: z.strictObject({ bank: z.string(), cardNumber: z.string(), holder: z.string() }),
        run: async () => ({ id: '1', bankName: 'B', cardNumber: '1', holder: 'H', time: 0 }),
      }),
    };
    expect(bad).toBeDefined();
  });

  it('refuses a path that is not in the contract', () => {
    const bad: ContractHandlers = {
      // @ts-expect-error /api/site/getSiteConfig is not a contract path
      '/api/site/getSiteConfig': handler({ method: 'GET', auth: false, run: async () => site() }),
    };
    expect(bad).toBeDefined();
  });
});

describe('the app client is typed from ContractMap', () => {
  it('answers the path data and checks the body', () => {
    const call: ApiClient['call'] = () => Promise.reject(new Error('not called'));
    expectTypeOf(call<'/api/site/getsite'>).returns.resolves.toEqualTypeOf<DataOf<'/api/site/getsite'>>();
    const calls = [
      call('/api/bank/add', { bankName: 'B', cardNumber: '6222', holder: 'H' }),
      // @ts-expect-error bankname is not the contract's bankName
      call('/api/bank/add', { bankname: 'B', cardNumber: '6222', holder: 'H' }),
      // @ts-expect-error there is no untyped overload: the path must be a contract path
      call('/api/bank/remove', { id: '1' }),
      // @ts-expect-error no type argument can widen the answer
      call<{ cards: unknown[] }>('/api/bank/list'),
    ];
    calls.forEach((p) => p.catch(() => undefined));
    expect(calls).toHaveLength(4);
  });

  it('refuses a renamed field read from an answer', async () => {
    const call: ApiClient['call'] = () => Promise.resolve(site() as never);
    const data = await call('/api/site/getsite');
    // @ts-expect-error the contract field is customerservice
    expect(data.customerService).toBeUndefined();
    expect(data.customerservice).toBe('help');
  });
});
