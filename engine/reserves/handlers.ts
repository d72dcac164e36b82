/**
 * Proof of reserves (API.md "Proof of reserves"): every hour a snapshot of what the engine owes its members,
 * a Merkle sum tree with one leaf per member (merkle.ts), its root, total, time and leaf count signed with an
 * Ed25519 key (`config.reservesSigningKey`; the published demo key in a demo engine; else a seed kept in
 * `meta`), each member's leaf and path kept for them to check. docs/OPERATIONS.md "Proof of reserves",
 * docs/DECISIONS.md "Proof of reserves".
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, concatBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { base64 } from '@scure/base';
import { members } from '../accounts/tables';
import type { Ctx } from '../context';
import { Codes, fail } from '../errors';
import { periodBoundary } from '../jobs';
import { balances } from '../ledger/tables';
import { USDT } from '../ledger/accounts';
import { formatAmount, type Micro } from '../money';
import { handler } from '../router';
import type { Domain } from '../routes';
import { meta } from '../site/handlers';
import {
  buildReserveTree,
  leafIdOf,
  leafNode,
  RESERVE_ACCOUNTS,
  reservePath,
  snapshotMessage,
  type ReserveLeaf,
  type ReserveNode,
} from './merkle';
import { DEMO_RESERVES_SIGNING_KEY } from './keys';
import { signText } from './signature';
import { reserveLeaves, reserveSnapshots, type ReserveSnapshotRow } from './tables';
import type { ReserveSnapshot } from './wire';

/** How often a snapshot is published. */
export const RESERVES_INTERVAL_MS = 3_600_000;
const LATEST = 'reserves.latest';
const KEY = 'reserves.signingKey';

/** When the next snapshot is due (Unix seconds), for the answers that say when to look again. */
function nextSnapshot(now: number): number {
  return Math.floor((periodBoundary(now, RESERVES_INTERVAL_MS) + RESERVES_INTERVAL_MS) / 1000);
}

async function signingSeed(ctx: Ctx): Promise<Uint8Array> {
  const configured = ctx.config.reservesSigningKey;
  if (configured) return decodeSeed(configured);
  if (ctx.config.demo) return decodeSeed(DEMO_RESERVES_SIGNING_KEY);
  const stored = (await ctx.tx.get(meta, KEY))?.value;
  if (stored) return decodeSeed(stored);
  const seed = ctx.entropy(32);
  ctx.tx.put(meta, { id: KEY, value: base64.encode(seed) });
  return seed;
}

function decodeSeed(text: string): Uint8Array {
  const seed = base64.decode(text);
  if (seed.length !== 32) throw new Error('The proof-of-reserves signing key must be 32 bytes (base64)');
  return seed;
}

function snapshotView(row: ReserveSnapshotRow): ReserveSnapshot {
  return {
    id: row.id,
    time: Math.floor(row.time / 1000),
    root: row.root,
    total: formatAmount(BigInt(row.total)),
    leafCount: row.leafCount,
    demo: row.demo,
    signature: row.signature,
    publicKey: row.publicKey,
  };
}

async function latest(ctx: Ctx): Promise<ReserveSnapshotRow | undefined> {
  const id = (await ctx.tx.get(meta, LATEST))?.value;
  return id ? ctx.tx.get(reserveSnapshots, id) : undefined;
}

/**
 * Every member's USDT per account (available and frozen of each sub-account), from the ledger's balances as
 * this unit of work sees them (one consistent snapshot: on PostgreSQL a REPEATABLE READ transaction).
 */
async function liabilities(ctx: Ctx): Promise<Map<string, Map<string, Micro>>> {
  const owed = new Map<string, Map<string, Micro>>();
  for (const member of await ctx.tx.scan(members)) owed.set(member.id, new Map());
  for (const row of await ctx.tx.scan(balances)) {
    if (row.asset !== USDT || !row.account.startsWith('user:')) continue;
    const [, memberId = '', ...rest] = row.account.split(':');
    const account = rest.join(':');
    if (!RESERVE_ACCOUNTS.includes(account))
      throw new Error(`Member account ${row.account} is not one a reserve leaf lists`);
    const per = owed.get(memberId) ?? new Map<string, Micro>();
    owed.set(memberId, per);
    per.set(account, (per.get(account) ?? 0n) + BigInt(row.amount));
  }
  return owed;
}

/** Takes, signs and stores a snapshot as of ctx.now; answers it, or null when there are no members yet. */
export async function takeSnapshot(ctx: Ctx): Promise<ReserveSnapshot | null> {
  const owed = [...(await liabilities(ctx))];
  if (owed.length === 0) return null;
  const id = await ctx.ids.next('reserveSnapshot');
  const secret = ctx.entropy(32 * owed.length);
  const leaves = owed.map(([memberId, per], i) => {
    const leaf: ReserveLeaf = {
      leafId: leafIdOf(memberId),
      // 32 random bytes per member, hashed with the snapshot and the member so that two nonces never repeat
      // even if the random source did.
      nonce: bytesToHex(
        sha256(concatBytes(secret.subarray(32 * i, 32 * i + 32), utf8ToBytes(`|${id}|${memberId}`))),
      ),
      balances: Object.fromEntries(RESERVE_ACCOUNTS.map((a) => [a, formatAmount(per.get(a) ?? 0n)])),
    };
    const node = leafNode(leaf);
    if (!node) throw new Error(`Member ${memberId} has a balance a reserve leaf cannot hold`);
    return { memberId, leaf, node };
  });
  // Ordered by leaf hash, which the secret nonce makes unpredictable: a position says nothing about who a
  // neighbour is (OKX shuffles its leaves for the same reason).
  leaves.sort((a, b) => (a.node.hash < b.node.hash ? -1 : a.node.hash > b.node.hash ? 1 : 0));
  const tree = buildReserveTree(leaves.map((l) => l.node as ReserveNode));
  const unsigned = {
    id,
    time: Math.floor(ctx.now / 1000),
    root: tree.root.hash,
    total: formatAmount(tree.root.sum),
    leafCount: leaves.length,
    demo: ctx.config.demo,
  };
  const signed = await signText(await signingSeed(ctx), snapshotMessage(unsigned));
  const row: ReserveSnapshotRow = {
    ...unsigned,
    time: ctx.now,
    total: tree.root.sum.toString(),
    signature: signed.signature,
    publicKey: signed.publicKey,
  };
  ctx.tx.put(reserveSnapshots, row);
  leaves.forEach(({ memberId, leaf }, index) => {
    ctx.tx.put(reserveLeaves, {
      id: memberId,
      memberId,
      snapshotId: id,
      index,
      leaf,
      path: reservePath(tree, index),
    });
  });
  ctx.tx.put(meta, { id: LATEST, value: id });
  return snapshotView(row);
}

export const reservesDomain: Domain = {
  name: 'reserves',
  handlers: {
    '/api/reserves/latest': handler({
      auth: false,
      run: async (ctx) => {
        const row = await latest(ctx);
        if (!row) {
          throw fail(Codes.reservesNoSnapshot, 'No proof-of-reserves snapshot has been published yet', {
            next: nextSnapshot(ctx.now),
          });
        }
        return snapshotView(row);
      },
    }),

    '/api/reserves/proof': handler({
      auth: true,
      run: async (ctx) => {
        const row = await latest(ctx);
        if (!row) {
          throw fail(Codes.reservesNoSnapshot, 'No proof-of-reserves snapshot has been published yet', {
            next: nextSnapshot(ctx.now),
          });
        }
        const mine = await ctx.tx.get(reserveLeaves, ctx.member.id);
        if (!mine || mine.snapshotId !== row.id) {
          throw fail(
            Codes.reservesNotIncluded,
            'Your account opened after the latest snapshot: it is in the next one',
            { next: nextSnapshot(ctx.now) },
          );
        }
        return { snapshot: snapshotView(row), leaf: mine.leaf, index: mine.index, path: mine.path };
      },
    }),
  },
  periodic: [
    {
      name: 'reserves.snapshot',
      intervalMs: RESERVES_INTERVAL_MS,
      run: async (ctx) => void (await takeSnapshot(ctx)),
    },
  ],
};
