/**
 * The console's Solvency view with proof of reserves (docs/OPERATIONS.md "Proof of reserves"), on PostgreSQL
 * when DATABASE_URL is set: no snapshot before the first hour, then the latest snapshot's published total,
 * time, leaf count and root against the chain gateway's holdings (surplus, coverage), read from the migrated
 * reserve_snapshots table.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { adminGet, OUTSIDE_TRC, startAdminFixture, stubGateway, type AdminFixture } from './admin-helpers';

import { deposit, signUp } from './serve';

import { dropSchema, freshSchema, sqlKind } from './sql';

const schema = freshSchema();
let f: AdminFixture;

beforeAll(async () => {
  const gateway = stubGateway({
    sendWithdrawal: async () => ({ txHash: 'ab'.repeat(32) }),
    walletBalance: async () => ({ address: OUTSIDE_TRC, amount: 1_000_000_000n }),
  });
  f = await startAdminFixture(schema, { TRC20: gateway }, '900');
}, 60_000);

afterAll(async () => {
  await f.server.close();
  await dropSchema(schema);
});

describe(`Solvency with proof of reserves (${sqlKind})`, () => {
  it('shows no snapshot before the first, then the published total against the holdings', async () => {
    const before = (await adminGet(f.server, '/api/admin/solvency', {}, f.reviewer.token)).data;
    expect(before.snapshot).toBeNull();

    f.server.clock.advance(3_600_000);
    await f.server.engine.settle();
    const published = (await f.server.call('/api/reserves/latest')).data;
    // Money that arrives after the snapshot is owed now, not in the published total.
    const bob = await signUp(f.server, 'bob');
    await deposit(f.server, bob, '200', 2);

    const s = (await adminGet(f.server, '/api/admin/solvency', {}, f.finance.token)).data;
    expect(s.liabilities).toBe('1100');
    expect(s.holdingsTotal).toBe('1000');
    expect(s.snapshot).toEqual({
      id: published.id,
      time: published.time,
      total: '900',
      leafCount: 1,
      root: published.root,
      demo: false,
      surplus: '100',
      ratio: '1.1111',
    });
  });
});
