/**
 * The Merkle sum tree of proof of reserves (docs/RULES.md Q1-Q4): a root over a set of leaves, every leaf's
 * proof reaching it, and the proof breaking when anything it commits to changes (a balance, the nonce, the
 * path, the root of another snapshot). Odd leaf counts carry their last node up unchanged.
 */
import { describe, expect, it } from 'vitest';
import {
  buildReserveTree,
  leafIdOf,
  leafNode,
  leafText,
  parentNode,
  pathShape,
  RESERVE_ACCOUNTS,
  reservePath,
  verifyInclusion,
  type ReserveLeaf,
  type ReserveNode,
} from './merkle';
import { formatAmount } from '../money';

function leafOf(memberId: string, cash: string, nonceByte = memberId.length): ReserveLeaf {
  const balances = Object.fromEntries(RESERVE_ACCOUNTS.map((a) => [a, '0']));
  balances['cash'] = cash;
  balances['fund:frozen'] = '0.5';
  return { leafId: leafIdOf(memberId), nonce: nonceByte.toString(16).padStart(2, '0').repeat(32), balances };
}

function treeOf(leaves: ReserveLeaf[]) {
  const nodes = leaves.map((l) => leafNode(l) as ReserveNode);
  return buildReserveTree(nodes);
}

function proofOf(leaves: ReserveLeaf[], index: number) {
  const tree = treeOf(leaves);
  return {
    leaf: leaves[index] as ReserveLeaf,
    index,
    path: reservePath(tree, index),
    root: tree.root.hash,
    total: formatAmount(tree.root.sum),
    leafCount: leaves.length,
  };
}

const SET = ['11', '12', '13', '14', '15'].map((id, i) => leafOf(id, `${i + 1}.25`, i + 1));

describe('Q1 the root over a set', () => {
  it('Q1 sums every leaf into the root and commits to each child hash and sum', () => {
    const tree = treeOf(SET);
    // 1.25 + 2.25 + 3.25 + 4.25 + 5.25 + five times 0.5 frozen.
    expect(formatAmount(tree.root.sum)).toBe('18.75');
    const [a, b, c, d, e] = SET.map((l) => leafNode(l) as ReserveNode) as [
      ReserveNode,
      ReserveNode,
      ReserveNode,
      ReserveNode,
      ReserveNode,
    ];
    // Five leaves: ((a b) (c d)) e, the fifth carried up unchanged (RFC 6962's shape).
    const expected = parentNode(parentNode(parentNode(a, b), parentNode(c, d)), e);
    expect(tree.root).toEqual(expected);
    expect(tree.levels.map((l) => l.length)).toEqual([5, 3, 2, 1]);
  });

  it('Q1 hashes a leaf from its text: leaf id, nonce and every account in a fixed order', () => {
    const leaf = leafOf('7', '10');
    expect(leafText(leaf)).toBe(
      `strata-por-leaf|${leafIdOf('7')}|${'01'.repeat(32)}|cash=10,cash:frozen=0,fund=0,fund:frozen=0.5,` +
        'contract=0,contract:frozen=0,options=0,options:frozen=0,financial=0,financial:frozen=0',
    );
    expect(leafIdOf('7')).toMatch(/^[0-9a-f]{64}$/);
    expect(leafIdOf('7')).not.toBe(leafIdOf('8'));
  });

  it('Q1 a single leaf is its own root, with an empty path', () => {
    const proof = proofOf([leafOf('1', '3')], 0);
    expect(proof.path).toEqual([]);
    expect(verifyInclusion(proof)).toEqual({ ok: true, total: '3.5' });
  });
});

describe('Q2 every member’s proof reaches the root', () => {
  for (const count of [1, 2, 3, 5, 6, 7, 8, 9, 13]) {
    it(`Q2 ${count} leaves (${count % 2 ? 'odd' : 'even'}): every index verifies, with the shape its position gives`, () => {
      const leaves = Array.from({ length: count }, (_, i) => leafOf(String(100 + i), `${i}.5`, i + 1));
      for (let i = 0; i < count; i++) {
        const proof = proofOf(leaves, i);
        expect(proof.path.map((s) => s.side)).toEqual(pathShape(i, count));
        expect(verifyInclusion(proof).ok).toBe(true);
      }
    });
  }

  it('Q2 the last of an odd count has a shorter path (no padding node, no duplicate)', () => {
    const leaves = Array.from({ length: 5 }, (_, i) => leafOf(String(i), '1', i + 1));
    expect(proofOf(leaves, 4).path).toHaveLength(1);
    expect(proofOf(leaves, 0).path).toHaveLength(3);
  });
});

describe('Q3 a changed leaf breaks the proof', () => {
  const proof = proofOf(SET, 2);

  it('Q3 a changed balance: the root is not reached', () => {
    const balances = { ...proof.leaf.balances, cash: '3.26' };
    expect(verifyInclusion({ ...proof, leaf: { ...proof.leaf, balances } })).toEqual({
      ok: false,
      reason: 'root',
    });
    const frozen = { ...proof.leaf.balances, 'fund:frozen': '0' };
    expect(verifyInclusion({ ...proof, leaf: { ...proof.leaf, balances: frozen } }).ok).toBe(false);
  });

  it('Q3 a changed nonce: the root is not reached', () => {
    const nonce = `${proof.leaf.nonce.slice(0, -1)}${proof.leaf.nonce.endsWith('0') ? '1' : '0'}`;
    expect(verifyInclusion({ ...proof, leaf: { ...proof.leaf, nonce } })).toEqual({
      ok: false,
      reason: 'root',
    });
  });

  it('Q3 another member’s leaf id, a non-canonical or negative amount, a missing account', () => {
    expect(verifyInclusion({ ...proof, leaf: { ...proof.leaf, leafId: leafIdOf('99') } }).ok).toBe(false);
    for (const cash of ['3.250', '-3.25', '+3.25', '3.2500001']) {
      const balances = { ...proof.leaf.balances, cash };
      expect(verifyInclusion({ ...proof, leaf: { ...proof.leaf, balances } })).toEqual({
        ok: false,
        reason: 'leaf',
      });
    }
    const { cash: _cash, ...missing } = proof.leaf.balances;
    expect(verifyInclusion({ ...proof, leaf: { ...proof.leaf, balances: missing } }).ok).toBe(false);
  });

  it('Q3 a changed sibling hash or sum, a flipped side, a wrong position or leaf count', () => {
    const [first, ...rest] = proof.path;
    if (!first) throw new Error('the path has siblings');
    const hash = `${first.hash.slice(0, -1)}${first.hash.endsWith('0') ? '1' : '0'}`;
    expect(verifyInclusion({ ...proof, path: [{ ...first, hash }, ...rest] }).ok).toBe(false);
    expect(verifyInclusion({ ...proof, path: [{ ...first, sum: '0' }, ...rest] }).ok).toBe(false);
    expect(verifyInclusion({ ...proof, path: [{ ...first, sum: '-1' }, ...rest] })).toEqual({
      ok: false,
      reason: 'path',
    });
    const flipped = { ...first, side: first.side === 'left' ? 'right' : 'left' } as const;
    expect(verifyInclusion({ ...proof, path: [flipped, ...rest] })).toEqual({ ok: false, reason: 'shape' });
    expect(verifyInclusion({ ...proof, index: 3 }).ok).toBe(false);
    expect(verifyInclusion({ ...proof, leafCount: 9 }).ok).toBe(false);
    expect(verifyInclusion({ ...proof, index: -1 }).ok).toBe(false);
  });

  it('Q3 a total other than the root’s sum', () => {
    expect(verifyInclusion({ ...proof, total: '18.74' })).toEqual({ ok: false, reason: 'total' });
  });
});

describe('Q4 a proof belongs to its own snapshot', () => {
  it('Q4 a proof from one snapshot fails against the root of another', () => {
    const before = proofOf(SET, 1);
    // The next snapshot: the same members, one balance moved, fresh nonces.
    const next = SET.map((l, i) => ({ ...l, nonce: (i + 40).toString(16).repeat(32) }));
    const after = proofOf(next, 1);
    expect(verifyInclusion(before).ok).toBe(true);
    expect(verifyInclusion(after).ok).toBe(true);
    expect(verifyInclusion({ ...before, root: after.root, total: after.total })).toEqual({
      ok: false,
      reason: 'root',
    });
  });
});
