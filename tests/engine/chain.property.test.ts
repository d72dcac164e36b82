import 'fake-indexeddb/auto';
/**
 * Random sequences of demo-chain payments, manual deposits, withdrawals (valid, deny-listed, cross-network,
 * invalid, to other members, wrong keys) and clock advances across three members. After every step the
 * ledger invariants hold (L1-L6: money conserved, nothing negative, cached balances equal the journal, each
 * hold closed once); at the end, with everything settled, the records explain every balance; and the same
 * seed and steps give the same state hash.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assembleEngine } from '../../engine/engine';
import {
  manualClock,
  type BodyOf,
  type ContractPath,
  type DataOf,
  type Engine,
  type Envelope,
} from '../../engine/index';
import { domains } from '../../engine/routes';
import { fixedEntropy, harnessCalls, registration, T0 } from './harness';

type Network = 'TRC20' | 'ERC20';
const NETWORKS: Network[] = ['TRC20', 'ERC20'];
const OUTSIDE: Record<Network, string> = {
  TRC20: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
  ERC20: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
};
const BURN: Record<Network, string> = {
  TRC20: 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb',
  ERC20: '0x000000000000000000000000000000000000dEaD',
};

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 7]);
const member = fc.integer({ min: 0, max: 2 });
const network = fc.constantFrom(...NETWORKS);
/** Micro-USDT up to 300 USDT, formatted as a wire string. */
const amount = fc.bigInt({ min: 0n, max: 300_000_000n }).map((m) => {
  const frac = (m % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '');
  return `${m / 1_000_000n}${frac ? `.${frac}` : ''}`;
});

const step = fc.oneof(
  fc.record({
    kind: fc.constant('send' as const),
    from: member,
    to: fc.integer({ min: -1, max: 2 }),
    network,
    amount,
  }),
  fc.record({
    kind: fc.constant('manual' as const),
    member,
    network,
    amount,
    txid: fc.option(fc.stringMatching(/^[0-9a-f]{64}$/), { nil: undefined }),
  }),
  fc.record({
    kind: fc.constant('withdraw' as const),
    member,
    network,
    amount,
    dest: fc.constantFrom('outside', 'burn', 'otherNetwork', 'invalid', 'member0', 'member1', 'member2'),
    rightKey: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 120_000 }) }),
);
type Step = typeof step extends fc.Arbitrary<infer S> ? S : never;

// Codes each call may answer; anything else (a 500 above all) fails the property.
const ALLOWED: Record<string, number[]> = {
  send: [0, 400],
  manual: [0, 400],
  withdraw: [911, 400, 410, 420, 421, 430, 3007, 4011],
};

interface World {
  engine: Engine;
  advance(ms: number): Promise<void>;
  /** A contract call as member `who` (none: no session). */
  call<P extends ContractPath>(path: P, body: BodyOf<P>, who?: number): Promise<Envelope<DataOf<P>>>;
  addresses: Record<Network, string>[];
  proofs: string[];
}

async function world(seed: number, storage = 'memory'): Promise<World> {
  const clock = manualClock(T0);
  // The market's per-second feed hook is irrelevant here and dominates settle time over long advances.
  const engine = await assembleEngine(
    {
      clock,
      seed,
      storage,
      entropy: fixedEntropy(seed),
      config: { pbkdf2Iterations: 1_000, secrets: 'seeded', rechargeReviewMs: 30_000 },
    },
    domains.filter((d) => d.name !== 'market'),
  );
  const headers: Record<string, string>[] = [];
  const calls = harnessCalls(engine);
  const call: World['call'] = (path, body, who) =>
    calls.call(path, body, { headers: (who === undefined ? undefined : headers[who]) ?? {} });
  const addresses: Record<Network, string>[] = [];
  const proofs: string[] = [];
  for (const name of ['alice', 'bob', 'carol']) {
    const cap = (await calls.get('/index/index/verify')).data;
    const reg = await call('/api/index/register', {
      ...registration(name),
      verify: cap.code ?? '',
      verifyKey: cap.key,
    });
    if (reg.code !== 0) throw new Error(`register: ${reg.msg}`);
    const login = await call('/api/index/login', { username: name, password: 'secret1' });
    const u = JSON.parse(login.data) as { id: string; token: string };
    headers.push({ Authorization: u.token, UserId: String(u.id) });
    const own = {} as Record<Network, string>;
    for (const n of NETWORKS) {
      own[n] = (await call('/api/recharge/address', { network: n }, headers.length - 1)).data.address;
    }
    addresses.push(own);
    // Start every member with 500 USDT so withdrawals have something to move.
    await call(
      '/api/demo/chain/send',
      { network: 'TRC20', address: own.TRC20, amount: '500' },
      headers.length - 1,
    );
    const form = new FormData();
    form.append('file', new Blob([PNG], { type: 'image/png' }), 'proof.png');
    const up = await call('/api/Recharges/uploads', form, headers.length - 1);
    proofs.push(up.data.url);
  }
  clock.advance(120_000);
  await engine.settle();
  return {
    proofs,
    engine,
    call,
    addresses,
    advance: async (ms) => {
      clock.advance(ms);
      await engine.settle();
    },
  };
}

function destination(w: World, s: Extract<Step, { kind: 'withdraw' }>): string {
  const other: Network = s.network === 'TRC20' ? 'ERC20' : 'TRC20';
  switch (s.dest) {
    case 'outside':
      return OUTSIDE[s.network];
    case 'burn':
      return BURN[s.network];
    case 'otherNetwork':
      return OUTSIDE[other];
    case 'invalid':
      return OUTSIDE[s.network].slice(0, -1) + (s.network === 'TRC20' ? 'u' : 'F');
    default:
      return w.addresses[Number(s.dest.slice(-1))]?.[s.network] ?? '';
  }
}

async function apply(w: World, s: Step): Promise<void> {
  let r: { code: number; msg: string } | undefined;
  if (s.kind === 'advance') return w.advance(s.ms);
  if (s.kind === 'send') {
    const address = s.to < 0 ? OUTSIDE[s.network] : (w.addresses[s.to]?.[s.network] ?? '');
    r = await w.call('/api/demo/chain/send', { network: s.network, address, amount: s.amount }, s.from);
  } else if (s.kind === 'manual') {
    const body =
      s.txid === undefined
        ? { proof: w.proofs[s.member] }
        : { txid: s.network === 'ERC20' ? `0x${s.txid}` : s.txid };
    r = await w.call('/api/recharge/submit', { network: s.network, amount: s.amount, ...body }, s.member);
  } else {
    const body: BodyOf<'/api/withdraw/submit'> = {
      currency: 'USDT',
      network: s.network,
      address: destination(w, s),
      amount: s.amount,
      key: s.rightKey ? 'key1' : 'nope',
    };
    r = await w.call('/api/withdraw/submit', body, s.member);
  }
  // W-rules of the address book: a withdrawal to the member's own deposit address is refused (6124), and only that.
  if (s.kind === 'withdraw' && s.dest === `member${s.member}` && r.code === 6124) return;
  expect(ALLOWED[s.kind], `${s.kind} answered ${r.code} ${r.msg}`).toContain(r.code);
}

interface Rec {
  status: string;
  amount: string;
  fee?: string;
}

const micro = (a: string): bigint => {
  const [whole = '0', frac = ''] = a.split('.');
  return BigInt(whole) * 1_000_000n + BigInt(frac.padEnd(6, '0'));
};

async function listAll(
  w: World,
  path: '/api/recharge/list' | '/api/withdraw/list',
  who: number,
): Promise<Rec[]> {
  return (await w.call(path, { limit: 100 }, who)).data.list;
}

describe('chain, deposit and withdrawal property (L1-L6, D2, W3-W6)', () => {
  it('L3 L4 L5 L6 hold after every random step, and settled records explain every balance', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 5, maxLength: 30 }), async (steps) => {
        const w = await world(17);
        for (const s of steps) {
          await apply(w, s);
          expect(await w.engine.diagnostics.checkInvariants()).toEqual([]);
        }
        await w.advance(3_600_000);
        expect(await w.engine.diagnostics.checkInvariants()).toEqual([]);
        const balances = await w.engine.diagnostics.rebuildBalances();
        let fees = 0n;
        for (let who = 0; who < 3; who++) {
          const deposits = await listAll(w, '/api/recharge/list', who);
          const withdrawals = await listAll(w, '/api/withdraw/list', who);
          expect([...deposits, ...withdrawals].every((r) => r.status !== 'pending')).toBe(true);
          const credited = deposits
            .filter((d) => d.status === 'success')
            .reduce((t, d) => t + micro(d.amount), 0n);
          const sent = withdrawals.filter((d) => d.status === 'success');
          fees += sent.reduce((t, d) => t + micro(d.fee ?? '0'), 0n);
          const user = (await w.call('/api/user/getuser', undefined, who)).data;
          expect(user.frozen).toBe('0');
          expect(micro(user.available)).toBe(credited - sent.reduce((t, d) => t + micro(d.amount), 0n));
        }
        expect(balances.get('platform:fees|USDT') ?? 0n).toBe(fees);
      }),
      { numRuns: 40 },
    );
  }, 120_000);

  it('L7 the same seed and the same steps give the same state hash', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 5, maxLength: 15 }), async (steps) => {
        const hashes: string[] = [];
        for (let i = 0; i < 2; i++) {
          const w = await world(23);
          for (const s of steps) await apply(w, s);
          await w.advance(600_000);
          hashes.push(await w.engine.diagnostics.stateHash());
        }
        expect(hashes[0]).toBe(hashes[1]);
      }),
      { numRuns: 8 },
    );
  }, 120_000);

  it('L7 memory and IndexedDB storage reach the same state hash', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 5, maxLength: 12 }), async (steps) => {
        const hashes: string[] = [];
        for (const storage of ['memory', `chain-property-${run++}`]) {
          const w = await world(29, storage);
          for (const s of steps) await apply(w, s);
          await w.advance(600_000);
          hashes.push(await w.engine.diagnostics.stateHash());
          await w.engine.close();
        }
        expect(hashes[0]).toBe(hashes[1]);
      }),
      { numRuns: 3 },
    );
  }, 120_000);
});
