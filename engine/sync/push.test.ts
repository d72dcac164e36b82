import { describe, expect, it } from 'vitest';
import { fund, signUp } from '../../tests/engine/harness';
import { mutationFingerprint } from './push';
import { available, pair, results, syncHarness, transfer, transferCount } from '../../tests/engine/sync-kit';

describe('sync push (docs/RULES.md Y1-Y5)', () => {
  it('Y1 a mutation id repeated in one batch and across batches is applied once and answers the same', async () => {
    const h = await syncHarness();
    const { alice } = await pair(h);
    const first = results(
      await h.push(alice, [transfer('m1', '5'), transfer('m2', '7'), transfer('m1', '5')]),
    );
    expect(first.map((r) => [r.id, r.code])).toEqual([
      ['m1', 0],
      ['m2', 0],
      ['m1', 0],
    ]);
    expect(first[2]).toEqual(first[0]);
    const again = results(await h.push(alice, [transfer('m2', '7'), transfer('m1', '5')], 'another-device'));
    expect(again).toEqual([first[1], first[0]]);
    expect(await transferCount(h)).toBe(2);
    expect(await available(h, alice)).toBe('988');
    expect(await h.engine.diagnostics.checkInvariants()).toEqual([]);
  });

  it('Y12 an id repeated with another body or call answers 422 and applies nothing; a secret field alone does not count', async () => {
    const h = await syncHarness();
    const { alice } = await pair(h);
    const first = results(await h.push(alice, [transfer('m1', '5')]));
    expect(first[0]?.code).toBe(0);
    const other = results(
      await h.push(alice, [
        transfer('m1', '6'),
        { id: 'm1', name: '/api/Viplist/Buyvip', args: { level: 1 } },
      ]),
    );
    expect(other.map((r) => r.code)).toEqual([422, 422]);
    // Path spelling and field order are the same request.
    const m1 = transfer('m1', '5');
    const same = {
      id: 'm1',
      name: '/API/transfer/submit/',
      args: Object.fromEntries(Object.entries(m1.args ?? {}).reverse()),
    };
    expect(results(await h.push(alice, [same]))).toEqual(first);
    expect(await transferCount(h)).toBe(1);
    expect(await available(h, alice)).toBe('995');
    // Secrets are not part of the fingerprint (it would be searchable offline): a repeat differing only there
    // answers the first answer.
    expect(mutationFingerprint('/api/withdraw/submit', { amount: '1', key: 'k1', code: '123456' })).toBe(
      mutationFingerprint('/api/withdraw/submit', { amount: '1', key: 'other', code: '654321' }),
    );
    expect(mutationFingerprint('/api/withdraw/submit', { amount: '1' })).not.toBe(
      mutationFingerprint('/api/withdraw/submit', { amount: '2' }),
    );
  });

  it('Y2 replayed mutations announce their balance changes on the feed after the push committed', async () => {
    const h = await syncHarness();
    const { alice, bob } = await pair(h);
    const seen: unknown[] = [];
    const stop = h.engine.subscribe((m) => {
      if (m.type === 'balance') seen.push(m.data);
    });
    results(
      await h.push(alice, [
        transfer('a', '1'),
        { id: 'b', name: '/test/move-then-throw', args: { amount: '1' } },
      ]),
    );
    stop();
    expect(seen).toEqual([{ memberId: alice.id }, { memberId: bob.id }]);
  });

  it('Y1 a repeat answers the first result even if it would now be answered differently', async () => {
    const h = await syncHarness();
    const { alice } = await pair(h, '3');
    const [short] = results(await h.push(alice, [transfer('big', '10')]));
    expect(short).toMatchObject({ id: 'big', code: 3005 });
    await fund(h, alice.id, '100');
    expect(results(await h.push(alice, [transfer('big', '10')]))).toEqual([short]);
    expect(await transferCount(h)).toBe(0);
    expect(await available(h, alice)).toBe('103');
  });

  it('Y1 results are scoped to the member: the same id from another member is a mutation of their own', async () => {
    const h = await syncHarness();
    const { alice, bob } = await pair(h);
    const carol = await signUp(h, 'carol');
    await fund(h, carol.id, '50');
    const [a] = results(await h.push(alice, [transfer('shared', '2')]));
    const [c] = results(await h.push(carol, [transfer('shared', '3')]));
    expect(a?.code).toBe(0);
    expect(c).toMatchObject({ code: 0, data: { from: 'carol', amount: '3' } });
    expect(c?.data).not.toEqual(a?.data);
    expect(await transferCount(h)).toBe(2);
    expect(await available(h, bob)).toBe('5');
  });

  it('Y2 a mutation that throws after moving money leaves no money moved and no success recorded', async () => {
    const h = await syncHarness();
    const { alice } = await pair(h);
    const m = { id: 'boom', name: '/test/move-then-throw', args: { amount: '40' } };
    const [r] = results(await h.push(alice, [m]));
    expect(r).toMatchObject({ id: 'boom', code: 4011 });
    expect(await available(h, alice)).toBe('1000');
    const stored = (await h.engine.diagnostics.snapshot())['syncResults'] as Array<{ code: number }>;
    expect(stored.map((s) => s.code)).toEqual([4011]);
    expect(results(await h.push(alice, [m]))).toEqual([r]);
    expect(await available(h, alice)).toBe('1000');
    expect(await h.engine.diagnostics.checkInvariants()).toEqual([]);
  });

  it('Y2 a failing mutation cannot change, even in place, what earlier mutations of the push wrote', async () => {
    const h = await syncHarness();
    const { alice } = await pair(h);
    const out = results(
      await h.push(alice, [
        transfer('a', '3'),
        { id: 'b', name: '/test/mutate-then-throw' },
        transfer('c', '4'),
      ]),
    );
    expect(out.map((r) => r.code)).toEqual([0, 400, 0]);
    expect(await available(h, alice)).toBe('993');
    expect(await h.engine.diagnostics.checkInvariants()).toEqual([]);
  });

  it('Y2 a crash at commit drops the effects and the answers together; the replay applies them once', async () => {
    const h = await syncHarness();
    const { alice } = await pair(h);
    h.crashNextCommit();
    const lost = await h.push(alice, [transfer('t1', '9'), transfer('t2', '1')]);
    expect(lost.code).toBe(500);
    expect(await transferCount(h)).toBe(0);
    expect((await h.engine.diagnostics.snapshot())['syncResults'] ?? []).toEqual([]);
    expect(await available(h, alice)).toBe('1000');
    const applied = results(
      await h.push(alice, [transfer('t1', '9'), transfer('t2', '1'), transfer('t1', '9')]),
    );
    expect(applied.map((r) => r.code)).toEqual([0, 0, 0]);
    expect(await transferCount(h)).toBe(2);
    expect(await available(h, alice)).toBe('990');
    expect(await h.engine.diagnostics.checkInvariants()).toEqual([]);
  });

  it('Y3 a failure is recorded with its onFailure work: a replayed wrong key counts once', async () => {
    const h = await syncHarness();
    const { alice } = await pair(h);
    const wrong = { id: 'vip-wrong', name: '/api/Viplist/Buyvip', args: { level: 1, key: 'nope' } };
    for (let i = 0; i < 6; i++) {
      expect(results(await h.push(alice, [wrong]))[0]?.code).toBe(3007);
    }
    const keyFails = (
      (await h.engine.diagnostics.snapshot())['members'] as Array<{ id: string; keyFails: number }>
    ).find((m) => m.id === alice.id)?.keyFails;
    expect(keyFails).toBe(1);
    const right = { id: 'vip-right', name: '/api/Viplist/Buyvip', args: { level: 1, key: 'key1' } };
    expect(results(await h.push(alice, [right]))[0]?.code).toBe(0);
  });

  it('Y4 only member mutations replay: others answer 403, unknown 404, bad args 400, in order', async () => {
    const h = await syncHarness();
    const { alice } = await pair(h);
    const out = results(
      await h.push(alice, [
        { id: 'a', name: '/api/index/login', args: { username: 'alice', password: 'secret1' } },
        { id: 'b', name: '/api/transfer/list', args: {} },
        { id: 'c', name: '/api/sync/push', args: { clientId: 'x', mutations: [] } },
        { id: 'd', name: '/api/index/logout' },
        { id: 'e', name: '/api/no/such/call', args: {} },
        { id: 'f', name: '/api/transfer/submit', args: { account: 'bob', amount: 5 } },
        { id: 'g', name: '/api/transfer/submit', args: { account: 'bob', amount: '1', extra: 1 } },
        transfer('h', '4'),
        { id: 'i', name: '/index/index/verify' },
      ]),
    );
    expect(out.map((r) => [r.id, r.code])).toEqual([
      ['a', 403],
      ['b', 403],
      ['c', 403],
      ['d', 403],
      ['e', 404],
      ['f', 400],
      ['g', 400],
      ['h', 0],
      ['i', 404],
    ]);
    expect(out[6]?.msg).toContain('extra');
    expect(await available(h, alice)).toBe('996');
  });

  it('Y5 push needs a session and a strict body of at most 500 mutations', async () => {
    const h = await syncHarness();
    const { alice } = await pair(h);
    expect((await h.call('/api/sync/push', { clientId: 'd', mutations: [transfer('x')] })).code).toBe(401);
    const bad: unknown[] = [
      { mutations: [] },
      { clientId: 'd', mutations: [], extra: true },
      { clientId: 'd', mutations: [{ id: 'x', name: '/api/transfer/submit', args: {}, more: 1 }] },
      { clientId: 'd', mutations: [{ id: 'has space', name: '/api/transfer/submit' }] },
      { clientId: 'd', mutations: [{ id: '', name: '/api/transfer/submit' }] },
      { clientId: 'd', mutations: 'none' },
      { clientId: 'd', mutations: Array.from({ length: 501 }, (_, i) => transfer(`m${i}`)) },
    ];
    for (const b of bad)
      expect((await h.callRaw('/api/sync/push', b, alice)).code, JSON.stringify(b).slice(0, 80)).toBe(400);
    expect(await transferCount(h)).toBe(0);
    const full = results(
      await h.push(
        alice,
        Array.from({ length: 500 }, (_, i) => transfer(`m${i}`)),
      ),
    );
    expect(full.every((r) => r.code === 0)).toBe(true);
    expect(await available(h, alice)).toBe('500');
    expect(await h.engine.diagnostics.checkInvariants()).toEqual([]);
  });

  it('Y4 a queued mutation is judged by the same pipeline as the direct call: same code, same message', async () => {
    const h = await syncHarness();
    const { alice } = await pair(h);
    const bodies: unknown[] = [
      { account: 'bob', amount: '1.1234567' },
      { account: 'bob', amount: 5 },
      { account: 'bob', amount: '1', extra: true },
      '{not json',
      [1, 2],
    ];
    for (const [i, args] of bodies.entries()) {
      const direct = await h.callRaw('/api/transfer/submit', args, alice);
      const [queued] = results(await h.push(alice, [{ id: `bad${i}`, name: '/api/transfer/submit', args }]));
      expect({ code: queued?.code, msg: queued?.msg }, JSON.stringify(args)).toEqual({
        code: direct.code,
        msg: direct.msg,
      });
      expect(direct.code).toBe(400);
    }
    expect(await transferCount(h)).toBe(0);
  });
});
