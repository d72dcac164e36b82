/**
 * Proof of reserves: the Merkle sum tree of member liabilities, pure and synchronous, shared by the engine
 * (which builds it) and the member's device (which checks its own inclusion proof, offline too), so both hash
 * exactly the same text: leaves `strata-por-leaf|leafId|nonce|balances`, parents committing to both
 * children's hashes and sums, an odd level carrying its last node up (RFC 6962's shape). The format:
 * docs/OPERATIONS.md "Proof of reserves"; why: docs/DECISIONS.md "Proof of reserves".
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { SUB_ACCOUNTS } from '../ledger/accounts';
import { formatAmount, tryParseAmount, type Micro } from '../money';

/** The accounts of a leaf, in hashing order: each sub-account, then its frozen part. */
export const RESERVE_ACCOUNTS: readonly string[] = SUB_ACCOUNTS.flatMap((sub) => [sub, `${sub}:frozen`]);

/** The most levels a path may have (2^64 leaves): a longer path is refused without hashing. */
const MAX_DEPTH = 64;
const HEX64 = /^[0-9a-f]{64}$/;

export interface ReserveLeaf {
  /** SHA-256 of the member's id under a fixed label (hex): the member finds their leaf by it. */
  leafId: string;
  /** 32 random hex bytes per member and snapshot, kept by the platform and shown only to the member. */
  nonce: string;
  /** USDT per account of RESERVE_ACCOUNTS, canonical decimal strings ("0", "12.5"). */
  balances: Record<string, string>;
}

/** One sibling on the way from a leaf to the root: which side it sits on, its hash and its sum (USDT). */
export interface ReservePathStep {
  side: 'left' | 'right';
  hash: string;
  sum: string;
}

export interface ReserveNode {
  hash: string;
  sum: Micro;
}

export function leafIdOf(memberId: string): string {
  return bytesToHex(sha256(utf8ToBytes(`strata-por-member|${memberId}`)));
}

function hashText(text: string): string {
  return bytesToHex(sha256(utf8ToBytes(text)));
}

/** A canonical non-negative amount ("12.5", never "12.50" or "+1"), or null. */
function canonicalAmount(text: unknown): Micro | null {
  const parsed = tryParseAmount(text);
  if (!parsed.ok || formatAmount(parsed.value) !== text) return null;
  return parsed.value;
}

/** The text a leaf's hash is taken of (what a member can recompute by hand). */
export function leafText(leaf: ReserveLeaf): string {
  const balances = RESERVE_ACCOUNTS.map((account) => `${account}=${leaf.balances[account] ?? ''}`).join(',');
  return `strata-por-leaf|${leaf.leafId}|${leaf.nonce}|${balances}`;
}

/** The leaf's node, or null when a balance is missing, negative or not canonical, or a field is malformed. */
export function leafNode(leaf: ReserveLeaf): ReserveNode | null {
  if (!HEX64.test(leaf.leafId) || !HEX64.test(leaf.nonce)) return null;
  const keys = Object.keys(leaf.balances);
  if (keys.length !== RESERVE_ACCOUNTS.length) return null;
  let sum = 0n;
  for (const account of RESERVE_ACCOUNTS) {
    const value = canonicalAmount(leaf.balances[account]);
    if (value === null) return null;
    sum += value;
  }
  return { hash: hashText(leafText(leaf)), sum };
}

export function parentNode(left: ReserveNode, right: ReserveNode): ReserveNode {
  const text = `strata-por-node|${left.hash}|${formatAmount(left.sum)}|${right.hash}|${formatAmount(right.sum)}`;
  return { hash: hashText(text), sum: left.sum + right.sum };
}

export interface ReserveTree {
  root: ReserveNode;
  /** Every level, leaves first, root last. */
  levels: ReserveNode[][];
}

/** The tree over `leaves` (at least one), in order. */
export function buildReserveTree(leaves: readonly ReserveNode[]): ReserveTree {
  if (leaves.length === 0) throw new RangeError('A reserve tree needs at least one leaf');
  const levels: ReserveNode[][] = [[...leaves]];
  let level = levels[0] as ReserveNode[];
  while (level.length > 1) {
    const next: ReserveNode[] = [];
    for (let i = 0; i < level.length; i += 2) {
      const left = level[i] as ReserveNode;
      const right = level[i + 1];
      next.push(right ? parentNode(left, right) : left);
    }
    levels.push(next);
    level = next;
  }
  return { root: level[0] as ReserveNode, levels };
}

/** The siblings of leaf `index` from the bottom up (a node carried up unchanged has none at that level). */
export function reservePath(tree: ReserveTree, index: number): ReservePathStep[] {
  const path: ReservePathStep[] = [];
  let i = index;
  for (const level of tree.levels.slice(0, -1)) {
    const sibling = i % 2 === 0 ? level[i + 1] : level[i - 1];
    if (sibling)
      path.push({ side: i % 2 === 0 ? 'right' : 'left', hash: sibling.hash, sum: formatAmount(sibling.sum) });
    i = Math.floor(i / 2);
  }
  return path;
}

/** The sides a path of leaf `index` in a tree of `count` leaves has, bottom up (its shape). */
export function pathShape(index: number, count: number): Array<'left' | 'right'> {
  const sides: Array<'left' | 'right'> = [];
  let i = index;
  let n = count;
  while (n > 1) {
    if (i % 2 === 1) sides.push('left');
    else if (i + 1 < n) sides.push('right');
    i = Math.floor(i / 2);
    n = Math.ceil(n / 2);
  }
  return sides;
}

export interface InclusionInput {
  leaf: ReserveLeaf;
  index: number;
  path: readonly ReservePathStep[];
  /** The signed snapshot's root hash, total (USDT) and leaf count. */
  root: string;
  total: string;
  leafCount: number;
}

export type InclusionVerdict =
  { ok: true; total: string } | { ok: false; reason: 'leaf' | 'shape' | 'path' | 'root' | 'total' };

/**
 * Recomputes the leaf's hash and folds the path up to the root: included when the hash AND the sum reached are
 * the snapshot's root and total, the path has the shape the leaf's position and the leaf count give, and every
 * sibling sum is a canonical non-negative amount (a negative sibling could hide liabilities).
 */
export function verifyInclusion(input: InclusionInput): InclusionVerdict {
  const leaf = leafNode(input.leaf);
  if (!leaf) return { ok: false, reason: 'leaf' };
  const { index, leafCount, path } = input;
  if (
    !Number.isSafeInteger(leafCount) ||
    !Number.isSafeInteger(index) ||
    index < 0 ||
    index >= leafCount ||
    path.length > MAX_DEPTH
  )
    return { ok: false, reason: 'shape' };
  const shape = pathShape(index, leafCount);
  if (shape.length !== path.length || shape.some((side, i) => path[i]?.side !== side))
    return { ok: false, reason: 'shape' };
  let node = leaf;
  for (const step of path) {
    const sum = canonicalAmount(step.sum);
    if (sum === null || !HEX64.test(step.hash)) return { ok: false, reason: 'path' };
    const sibling = { hash: step.hash, sum };
    node = step.side === 'left' ? parentNode(sibling, node) : parentNode(node, sibling);
  }
  if (node.hash !== input.root) return { ok: false, reason: 'root' };
  if (formatAmount(node.sum) !== input.total) return { ok: false, reason: 'total' };
  return { ok: true, total: input.total };
}

/** The text a snapshot's signature covers (UTF-8), one field per line. */
export function snapshotMessage(s: {
  id: string;
  time: number;
  root: string;
  total: string;
  leafCount: number;
  demo: boolean;
}): string {
  return [
    'strata-proof-of-reserves-v1',
    `id=${s.id}`,
    `time=${s.time}`,
    `root=${s.root}`,
    `total=${s.total}`,
    `leaves=${s.leafCount}`,
    `demo=${s.demo}`,
  ].join('\n');
}
