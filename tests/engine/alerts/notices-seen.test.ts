/**
 * The notices' read state (issue 26 item 4; API.md "Price alerts", notices read): /api/notice/seen records
 * the newest notice id the member has seen, only ever forward; another member's notice, an unknown id, a
 * malformed body and a guest are refused with their codes and write nothing; a replay through /api/sync/push
 * applies once; the row syncs to the member's devices as `noticeReads`.
 */
import { describe, expect, it } from 'vitest';
import { harness, signUp, type Harness, type Session } from '../harness';

/** A notice for `s` (setting the anti-phishing code tells the member); answers its id. */
async function notice(h: Harness, s: Session, phrase: string): Promise<string> {
  expect((await h.call('/api/security/antiphishing', { phrase }, s)).code).toBe(0);
  const list = await h.call('/api/security/notices', {}, s);
  expect(list.code).toBe(0);
  return list.data.list[0]!.id;
}

const seen = (h: Harness, s: Session, id: unknown) => h.callRaw('/api/notice/seen', { id }, s);

async function pulledReads(h: Harness, s: Session, cursor?: string) {
  const pulled = (await h.call('/api/sync/pull', cursor === undefined ? {} : { cursor }, s)).data;
  return { cursor: pulled.cursor, rows: pulled.changes.filter((c) => c.table === 'noticeReads') };
}

describe('notices read', () => {
  it('records the newest notice seen, never backwards, per member', async () => {
    const h = await harness();
    const ann = await signUp(h, 'ann');
    const first = await notice(h, ann, 'blue fox');
    const second = await notice(h, ann, 'red fox');
    expect(Number(second)).toBeGreaterThan(Number(first));
    expect(await seen(h, ann, second)).toMatchObject({
      code: 0,
      data: { id: ann.id, seen: second, time: expect.any(Number) as number },
    });
    h.clock.advance(1000);
    // An older id (a slower device, a replay) changes nothing and answers the state recorded.
    const back = await seen(h, ann, first);
    expect(back).toMatchObject({ code: 0, data: { seen: second } });
    const third = await notice(h, ann, 'green fox');
    expect(await seen(h, ann, third)).toMatchObject({ code: 0, data: { seen: third } });
    const { rows } = await pulledReads(h, ann);
    expect(rows.map((r) => r.record)).toEqual([
      { id: ann.id, seen: third, time: expect.any(Number) as number },
    ]);
  });

  it("refuses another member's notice, an unknown id, a malformed body and a guest, writing nothing", async () => {
    const h = await harness();
    const ann = await signUp(h, 'ann');
    const bob = await signUp(h, 'bob');
    const bobs = await notice(h, bob, 'bob code');
    const anns = await notice(h, ann, 'ann code');
    expect(await seen(h, ann, bobs)).toMatchObject({ code: 6206, data: null });
    expect((await seen(h, ann, String(Number(anns) + 1000))).code).toBe(6206);
    for (const bad of [7, '', '0', '007', '-3', '1.5', 'abc', '1234567890123456', null]) {
      expect((await seen(h, ann, bad)).code, JSON.stringify(bad)).toBe(400);
    }
    expect((await h.callRaw('/api/notice/seen', { id: anns, extra: 1 }, ann)).code).toBe(400);
    expect((await h.callRaw('/api/notice/seen', {}, ann)).code).toBe(400);
    expect((await h.callRaw('/api/notice/seen', { id: anns })).code).toBe(401);
    // Nothing was recorded for either member.
    expect((await pulledReads(h, ann)).rows).toEqual([]);
    expect((await pulledReads(h, bob)).rows).toEqual([]);
  });

  it('applies a write replayed through /api/sync/push once, and another device pulls it', async () => {
    const h = await harness();
    const ann = await signUp(h, 'ann');
    const first = await notice(h, ann, 'one two');
    const second = await notice(h, ann, 'three four');
    const push = (id: string, notice: string, clientId = 'phone') =>
      h.call(
        '/api/sync/push',
        { clientId, mutations: [{ id, name: '/api/notice/seen', args: { id: notice } }] },
        ann,
      );
    const before = await pulledReads(h, ann);
    const pushed = await push('m-1', second);
    expect(pushed.code).toBe(0);
    expect(pushed.data.results[0]?.code).toBe(0);
    // The tablet sends an older id later: still the newest stays.
    expect((await push('m-2', first, 'tablet')).code).toBe(0);
    // The first mutation again: its first answer, nothing applied.
    const again = await push('m-1', second);
    expect(again.data.results[0]?.code).toBe(0);
    const after = await pulledReads(h, ann, before.cursor);
    expect(after.rows.map((r) => [r.op, (r.record as { seen: string }).seen])).toEqual([['put', second]]);
  });
});
