import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { resolveConfig } from './config';
import type { Ctx } from './context';
import { fail } from './errors';
import type { FeedMessage } from './feed';
import { manualClock } from './index';
import { acct } from './ledger/accounts';
import { checkInvariants } from './ledger/invariants';
import { createRandom } from './random';
import { handler, reply } from './router';
import type { Domain } from './routes';
import { Runtime } from './runtime';
import { amount, body } from './schema';
import { MemoryStore } from './store/memory';
import { scratchTable } from '../tests/engine/scratch-table';

interface Note {
  id: string;
  text: string;
  at: number;
}
const notes = scratchTable<Note>('notes');

function setup(extra: Partial<Domain> = {}) {
  const clock = manualClock(1_000_000_000_000);
  const store = new MemoryStore();
  const log: string[] = [];
  const domain: Domain = {
    name: 'test',
    handlers: {
      '/test/note': handler({
        auth: false,
        body: body({ text: z.string(), boom: z.boolean().optional() }),
        run: async (ctx, input) => {
          ctx.tx.put(notes, { id: await ctx.ids.next('note'), text: input.text, at: ctx.now });
          ctx.emit({ type: 'balance', data: { memberId: input.text } });
          if (input.boom) throw fail(3005, 'boom');
          return { ok: true };
        },
      }),
      '/test/fund': handler({
        auth: false,
        body: body({ amount }),
        run: async (ctx, input) => {
          await ctx.ledger.move(acct.world('TRC20'), acct.user('100001'), input.amount, {
            kind: 'deposit',
            ref: 'x',
          });
          return reply(911, { held: true }, 'awaiting review');
        },
      }),
      '/test/count': handler({
        method: 'GET',
        auth: false,
        run: async (ctx) => (await ctx.tx.scan(notes)).length,
      }),
      '/test/item/:id': handler({
        method: 'GET',
        auth: false,
        run: async (_ctx, _body, params) => params['id'],
      }),
      '/test/throw': handler({
        auth: false,
        run: async () => {
          throw new Error('bug');
        },
      }),
    },
    ...extra,
  };
  const rt = new Runtime(store, resolveConfig({ secrets: 'seeded' }), clock, 1, createRandom(1), [domain]);
  const feed: FeedMessage[] = [];
  rt.feed.subscribe((m) => feed.push(m));
  return { rt, clock, store, feed, log };
}

const post = (path: string, b?: unknown) => ({ method: 'POST', path, headers: {}, body: b });

describe('router and units of work', () => {
  it('G4 unknown paths answer 404, a wrong method 404, always with HTTP status 200', async () => {
    const { rt } = setup();
    const a = await rt.handle(post('/api/nothing'));
    expect(a).toMatchObject({ status: 200, body: { code: 404 } });
    const b = await rt.handle({ method: 'POST', path: '/test/count' });
    expect(b.body.code).toBe(404);
    expect(b.body.msg).toMatch(/does not answer POST/);
    const c = await rt.handle({ method: 'get', path: '/TEST/Count/?x=1' });
    expect(c.body).toEqual({ code: 0, msg: 'ok', data: 0 });
  });

  it('G5 malformed JSON, wrong types, missing and extra fields answer 400 and write nothing', async () => {
    const { rt, store } = setup();
    for (const b of ['{"text":', '[1]', 42, { text: 5 }, {}, { text: 'a', extra: 1 }]) {
      const r = await rt.handle(post('/test/note', b));
      expect(r.body.code).toBe(400);
      expect(r.body.msg.length).toBeGreaterThan(5);
    }
    expect((await rt.handle(post('/test/note', { text: 'a', extra: 1 }))).body.msg).toMatch(
      /unknown field "extra"/,
    );
    expect(await store.tables()).toEqual([]);
    expect((await rt.handle(post('/test/note', '{"text":"json string"}'))).body.code).toBe(0);
  });

  it('G1 a failing handler rolls back every write, counters included, and announces nothing', async () => {
    const { rt, store, feed } = setup();
    expect((await rt.handle(post('/test/note', { text: 'a', boom: true }))).body).toEqual({
      code: 3005,
      msg: 'boom',
      data: null,
    });
    expect(await store.scan('notes')).toEqual([]);
    expect(await store.scan('counters')).toEqual([]);
    expect(feed).toEqual([]);
    await rt.handle(post('/test/note', { text: 'b' }));
    expect(await store.scan('notes')).toMatchObject([{ id: '1', text: 'b' }]);
    expect(feed).toEqual([{ type: 'balance', data: { memberId: 'b' } }]);
  });

  it('G6 a handler bug answers 500 and never throws to the caller', async () => {
    const { rt } = setup();
    expect((await rt.handle(post('/test/throw'))).body).toEqual({
      code: 500,
      msg: 'Server exception',
      data: null,
    });
    expect((await rt.handle({ method: 'GET', path: '/test/item/%E0%A4%A' })).body.code).toBe(404);
    expect((await rt.handle({ method: 'GET', path: '/test/item/a%20b' })).body.data).toBe('a b');
    // @ts-expect-error: garbage in must still answer
    expect((await rt.handle(null)).body.code).toBe(404);
  });

  it('G7 a success with a non-zero code commits, and balance changes are announced per member after commit', async () => {
    const { rt, feed, store } = setup();
    const r = await rt.handle(post('/test/fund', { amount: '12.5' }));
    expect(r.body).toEqual({ code: 911, msg: 'awaiting review', data: { held: true } });
    expect(feed).toEqual([{ type: 'balance', data: { memberId: '100001' } }]);
    expect(await checkInvariants(store)).toEqual([]);
    expect((await rt.handle(post('/test/fund', { amount: 12.5 }))).body.code).toBe(400);
    expect((await rt.handle(post('/test/fund', { amount: '-1' }))).body.code).toBe(400);
  });

  it('G8 calls are serialised: concurrent calls see each other, none is lost', async () => {
    const { rt } = setup();
    await Promise.all(Array.from({ length: 20 }, (_, i) => rt.handle(post('/test/note', { text: `n${i}` }))));
    expect((await rt.handle({ method: 'GET', path: '/test/count' })).body.data).toBe(20);
  });
});

describe('jobs and periodic hooks', () => {
  it('J1 settle runs due jobs in due order, as of their due time, including jobs they schedule', async () => {
    const ran: Array<[string, number]> = [];
    const { rt, clock } = setup({
      jobs: {
        'test.tick': async (ctx: Ctx, payload) => {
          ran.push([String(payload), ctx.now]);
          if (payload === 'b') await ctx.jobs.schedule('test.tick', ctx.now + 10, 'c');
        },
      },
      init: async (ctx: Ctx) => {
        if ((await ctx.jobs.pending('test.tick')).length === 0) {
          await ctx.jobs.schedule('test.tick', ctx.now + 200, 'late');
          await ctx.jobs.schedule('test.tick', ctx.now + 100, 'b');
          await ctx.jobs.schedule('test.tick', ctx.now + 100, 'a2');
        }
      },
    });
    await rt.init();
    const t0 = clock.now();
    await rt.settle();
    expect(ran).toEqual([]);
    clock.advance(150);
    await rt.settle();
    expect(ran).toEqual([
      ['b', t0 + 100],
      ['a2', t0 + 100],
      ['c', t0 + 110],
    ]);
    clock.advance(1000);
    await rt.settle();
    expect(ran.at(-1)).toEqual(['late', t0 + 200]);
  });

  it('J2 a failing job is moved aside once, its writes dropped, and settle goes on', async () => {
    const { rt, clock, store } = setup({
      jobs: {
        'test.bad': async (ctx: Ctx) => {
          ctx.tx.put(notes, { id: 'x', text: 'never', at: 0 });
          throw new Error('job bug');
        },
      },
      init: async (ctx: Ctx) => void (await ctx.jobs.schedule('test.bad', ctx.now + 1)),
    });
    await rt.init();
    clock.advance(5);
    await rt.settle();
    await rt.settle();
    expect(await store.scan('notes')).toEqual([]);
    expect(await store.scan('jobs')).toEqual([]);
    expect(await store.scan('deadJobs')).toMatchObject([{ kind: 'test.bad', error: 'Error: job bug' }]);
  });

  it('J3 a periodic hook gets each missed window once: a 40-day gap is one call, not 40 days of ticks', async () => {
    const windows: Array<{ from: number; to: number }> = [];
    const day = 86_400_000;
    const { rt, clock } = setup({
      periodic: [{ name: 'test.daily', intervalMs: day, run: async (_ctx, w) => void windows.push(w) }],
    });
    await rt.init();
    const start = Math.floor(clock.now() / day) * day;
    clock.advance(40 * day);
    await rt.settle();
    await rt.settle();
    expect(windows).toEqual([{ from: start, to: start + 40 * day }]);
    clock.advance(day / 2);
    await rt.settle();
    expect(windows).toHaveLength(1);
  });

  it('J4 hook windows are cut at due jobs so hooks and jobs interleave in time order', async () => {
    const order: string[] = [];
    const { rt, clock } = setup({
      periodic: [
        {
          name: 'test.h',
          intervalMs: 1000,
          run: async (_c, w) => void order.push(`hook..${w.to % 100_000}`),
        },
      ],
      jobs: { 'test.j': async (ctx: Ctx) => void order.push(`job@${ctx.now % 100_000}`) },
      init: async (ctx: Ctx) => void (await ctx.jobs.schedule('test.j', ctx.now + 2500)),
    });
    await rt.init();
    clock.advance(5000);
    await rt.settle();
    expect(order).toEqual(['hook..2000', 'job@2500', 'hook..5000']);
  });

  it('J5 thousands of due jobs settle in one linear pass, and a job cancelled by an earlier one does not run', async () => {
    const ran: number[] = [];
    const { rt, clock } = setup({
      jobs: {
        'test.many': async (ctx: Ctx, payload) => {
          ran.push(Number(payload));
          if (payload === 0) ctx.jobs.cancel('2');
        },
      },
      init: async (ctx: Ctx) => {
        for (let i = 0; i < 3000; i++) await ctx.jobs.schedule('test.many', ctx.now + 10 + (i % 7), i);
      },
    });
    await rt.init();
    clock.advance(100);
    const started = performance.now();
    await rt.settle();
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(ran).toHaveLength(2999);
    expect(ran).not.toContain(1);
    // due order: by dueAt (i % 7), then scheduling order
    expect(ran.slice(0, 3)).toEqual([0, 7, 14]);
  });
});
