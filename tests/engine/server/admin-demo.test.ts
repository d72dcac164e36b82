/**
 * The demo server's operator console works end to end: with DEMO=true and no gateway configured, an approval
 * is sent through the simulated chain (server/chain/simulated.ts) and the record gets its simulated hash.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { SimulatedChain } from '../../../engine/chain/simulator';

import { SqlStore } from '../../../server/sql-store';

import { adminCall, makeOperator } from './admin-helpers';

import { deposit, signUp, startTestServer, type TestServer } from './serve';

import { dropSchema, freshSchema, sqlKind, testDriver } from './sql';

const schema = freshSchema();
let store: SqlStore;
let server: TestServer;

beforeAll(async () => {
  store = await SqlStore.open(await testDriver(), { schema });
  server = await startTestServer({ storage: store, config: { demo: true, loginPerIpPerMinute: 1_000 } });
});

afterAll(async () => {
  await server.close();
  await dropSchema(schema);
});

describe(`operator API in demo mode (${sqlKind})`, () => {
  it('an approval is sent on the simulated chain and records its hash', async () => {
    const reviewer = await makeOperator(store, server, 'rita', 'reviewer');
    const ann = await signUp(server, 'ann');
    await deposit(server, ann, '100', 1);
    const w = await server.call(
      '/api/withdraw/submit',
      {
        currency: 'USDT',
        network: 'TRC20',
        address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
        amount: '30',
        key: 'key1',
      },
      ann,
    );
    const id = w.data.id;
    const r = await adminCall(server, '/api/admin/withdrawals/approve', { id }, reviewer.token);
    expect(r.code).toBe(0);
    const hash = new SimulatedChain('TRC20', { blockMs: 3_000, confirmations: 1 }, 1).txHash(`out:${id}`);
    expect(r.data).toMatchObject({ status: 'success', txHash: hash, received: '29' });
  });
});
