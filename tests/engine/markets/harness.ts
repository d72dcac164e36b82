/**
 * A small engine for the markets-and-products tests: the real runtime with the domains of issue 4 and a
 * test-only domain that creates members (any VIP level, age and cash) without going through registration,
 * captchas and chains, which other tests cover.
 */
import { z } from 'zod';
import { members, type MemberRow } from '../../../engine/accounts/tables';
import { resolveConfig } from '../../../engine/config';
import type { BodyOf, ContractPath, DataOf, Envelope } from '../../../engine/contract';
import type { FeedMessage } from '../../../engine/feed';
import { manualClock, type ManualClock } from '../../../engine/index';
import { harnessCalls, type Harness as EngineHarness } from '../harness';
import { acct } from '../../../engine/ledger/accounts';
import { checkInvariants } from '../../../engine/ledger/invariants';
import { balanceId } from '../../../engine/ledger/tables';
import { parseAmount } from '../../../engine/money';
import { createRandom } from '../../../engine/random';
import { handler } from '../../../engine/router';
import type { Domain } from '../../../engine/routes';
import { domains } from '../../../engine/routes';
import { Runtime } from '../../../engine/runtime';
import { body } from '../../../engine/schema';
import { hashSecret } from '../../../engine/security/hashing';
import { openSession } from '../../../engine/security/sessions';
import { MemoryStore } from '../../../engine/store/memory';

export const KEY = 'key1234';
export const DAY = 86_400_000;

const testDomain: Domain = {
  name: 'markets-test',
  handlers: {
    '/test/member': handler({
      auth: false,
      body: body({
        username: z.string(),
        vip: z.number().int(),
        cash: z.string(),
        ageDays: z.number(),
        invitedBy: z.string().nullable(),
      }),
      run: async (ctx, input) => {
        const id = await ctx.ids.next('member');
        const row: MemberRow = {
          id,
          username: input.username,
          usernameKey: input.username.toLowerCase(),
          email: null,
          emailKey: null,
          phone: null,
          phoneKey: null,
          passwordHash: 'x',
          keyHash: await hashSecret(KEY, new Uint8Array(16), 1_000),
          question: 'q',
          answerHash: 'x',
          vip: input.vip,
          vipExpiresAt: null,
          inviteCode: `INV${id}`,
          invitedBy: input.invitedBy,
          createdAt: ctx.now - input.ageDays * DAY,
          creditScore: 100,
          realNameStatus: 'none',
          status: 'active',
          keyFails: 0,
          keyLockedUntil: null,
          withdrawHoldUntil: null,
        };
        ctx.tx.put(members, row);
        const cash = parseAmount(input.cash);
        if (cash > 0n)
          await ctx.ledger.move(acct.world('TRC20'), acct.user(id), cash, { kind: 'deposit', ref: 'test' });
        return { id, token: (await openSession(ctx, id)).token };
      },
    }),
  },
};

/** The body of /api/order/place, and its sides. */
export type OrderBody = BodyOf<'/api/order/place'>;
export type Side = OrderBody['side'];

/** A member and their calls, typed as the engine harness's (a contract path's body in, its data out). */
export interface Member {
  id: string;
  call<P extends ContractPath>(path: P, body?: BodyOf<P>): Promise<Envelope<DataOf<P>>>;
  /** Anything the contract refuses (a malformed body), sent unchecked; its data is unknown. */
  callRaw(path: string, body?: unknown): Promise<Envelope>;
}

export interface Harness {
  rt: Runtime;
  clock: ManualClock;
  store: MemoryStore;
  feed: FeedMessage[];
  member(options?: {
    vip?: number;
    cash?: string;
    ageDays?: number;
    invitedBy?: string | null;
  }): Promise<Member>;
  /** Advances the clock and runs every due job. */
  advance(ms: number): Promise<void>;
  invariants(): Promise<string[]>;
  balance(account: string, asset?: string): Promise<bigint>;
}

export async function harness(
  start = Date.UTC(2026, 10, 21, 9, 30, 0),
  seed = 7,
  overrides: Record<string, unknown> = {},
): Promise<Harness> {
  const clock = manualClock(start);
  const store = new MemoryStore();
  const config = resolveConfig({
    secrets: 'seeded',
    pbkdf2Iterations: 1_000,
    tokenTtlMs: 400 * DAY,
    ...overrides,
  });
  const rt = new Runtime(store, config, clock, seed, createRandom(seed), [...domains, testDomain]);
  await rt.init();
  const feed: FeedMessage[] = [];
  rt.feed.subscribe((m) => {
    if (!['ticker24hr', 'Curr', 'Kline', 'getQuota'].includes(m.type)) feed.push(m);
  });
  let count = 0;
  return {
    rt,
    clock,
    store,
    feed,
    async member(options = {}) {
      count += 1;
      const res = await rt.handle({
        method: 'POST',
        path: '/test/member',
        body: {
          username: `member${count}`,
          vip: options.vip ?? 1,
          cash: options.cash ?? '0',
          ageDays: options.ageDays ?? 30,
          invitedBy: options.invitedBy ?? null,
        },
      });
      const { id, token } = z.object({ id: z.string(), token: z.string() }).parse(res.body.data);
      const session = { headers: { Authorization: token, UserId: id } };
      const calls: Pick<EngineHarness, 'call' | 'callRaw'> = harnessCalls((request) => rt.handle(request));
      return {
        id,
        call: (path, b) => calls.call(path, b, session),
        callRaw: (path, b) => calls.callRaw(path, b, session),
      };
    },
    async advance(ms) {
      clock.advance(ms);
      await rt.settle();
    },
    invariants: () => checkInvariants(store),
    async balance(account, asset = 'USDT') {
      const row = (await store.get('balances', balanceId(account, asset))) as { amount: string } | undefined;
      return row ? BigInt(row.amount) : 0n;
    },
  };
}
