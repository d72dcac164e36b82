/**
 * One contract suite for every storage adapter (memory, Dexie on fake-indexeddb). Rules G1-G3 of
 * docs/RULES.md: a unit of work commits all of its writes or none, reads see its own writes, and adapters
 * answer the same thing for the same history.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { DexieStore, MemoryStore, Tx, type StoreAdapter } from '../../engine/store';
import { scratchTable } from './scratch-table';
import { openThrowawaySqlStore, sqlKind } from './server/sql';

interface Pet {
  id: string;
  owner: string;
  name: string;
  tags: string[];
}

const pets = scratchTable<Pet>('pets', { owner: (p) => p.owner, tag: (p) => p.tags });

let dbCounter = 0;
const adapters: Array<[string, () => Promise<StoreAdapter>]> = [
  ['memory', async () => new MemoryStore()],
  ['dexie', async () => DexieStore.open(`contract-${++dbCounter}`)],
  [`sql (${sqlKind})`, openThrowawaySqlStore],
];

describe.each(adapters)('store contract: %s', (_name, open) => {
  it('G1 a committed unit of work is visible whole; an uncommitted one not at all', async () => {
    const store = await open();
    const tx = new Tx(store);
    tx.put(pets, { id: '1', owner: 'ann', name: 'Rex', tags: ['dog'] });
    tx.put(pets, { id: '2', owner: 'ann', name: 'Tom', tags: ['cat'] });
    expect(await store.get('pets', '1')).toBeUndefined();
    await tx.commit();
    expect(await store.get('pets', '1')).toEqual({ id: '1', owner: 'ann', name: 'Rex', tags: ['dog'] });

    const dropped = new Tx(store);
    dropped.put(pets, { id: '3', owner: 'bob', name: 'Ghost', tags: [] });
    dropped.delete(pets, '1');
    // never committed: nothing of it may show
    expect(await store.scan('pets')).toHaveLength(2);
    await store.close();
  });

  it('G2 reads through a unit of work see its own writes and deletes, index queries included', async () => {
    const store = await open();
    const seed = new Tx(store);
    seed.put(pets, { id: '1', owner: 'ann', name: 'Rex', tags: ['dog'] });
    seed.put(pets, { id: '2', owner: 'bob', name: 'Tom', tags: ['cat'] });
    await seed.commit();

    const tx = new Tx(store);
    tx.put(pets, { id: '2', owner: 'ann', name: 'Tom', tags: ['cat', 'old'] });
    tx.delete(pets, '1');
    tx.put(pets, { id: '10', owner: 'ann', name: 'Kit', tags: ['cat'] });
    expect((await tx.query(pets, 'owner', 'ann')).map((p) => p.id)).toEqual(['2', '10']);
    expect((await tx.query(pets, 'owner', 'bob')).map((p) => p.id)).toEqual([]);
    expect((await tx.query(pets, 'tag', 'cat')).map((p) => p.id)).toEqual(['2', '10']);
    expect(await tx.get(pets, '1')).toBeUndefined();
    expect((await tx.scan(pets)).map((p) => p.id)).toEqual(['2', '10']);
    await tx.commit();
    expect((await store.query('pets', 'owner=ann')).map((p) => (p as Pet).id)).toEqual(['2', '10']);
    expect(await store.query('pets', 'tag=dog')).toEqual([]);
    await store.close();
  });

  it('G3 adapters hand out copies: mutating a read record changes nothing stored', async () => {
    const store = await open();
    const tx = new Tx(store);
    tx.put(pets, { id: '1', owner: 'ann', name: 'Rex', tags: ['dog'] });
    await tx.commit();
    const copy = (await store.get('pets', '1')) as Pet;
    copy.name = 'Changed';
    copy.tags.push('x');
    expect(await store.get('pets', '1')).toEqual({ id: '1', owner: 'ann', name: 'Rex', tags: ['dog'] });
    await store.close();
  });

  it('G3 results come in id order (numeric for counter ids) and tables() lists non-empty tables', async () => {
    const store = await open();
    const tx = new Tx(store);
    for (const id of ['10', '2', '1', '33']) tx.put(pets, { id, owner: 'o', name: id, tags: [] });
    await tx.commit();
    expect((await store.scan('pets')).map((p) => (p as Pet).id)).toEqual(['1', '2', '10', '33']);
    expect(await store.tables()).toEqual(['pets']);
    expect(await store.scan('nothing')).toEqual([]);
    await store.close();
  });
});

describe('store contract: dexie persistence', () => {
  it('G1 what one engine committed is there after reopening the database', async () => {
    const name = `persist-${++dbCounter}`;
    const first = await DexieStore.open(name);
    const tx = new Tx(first);
    tx.put(pets, { id: '1', owner: 'ann', name: 'Rex', tags: ['dog'] });
    tx.put(pets, { id: '2', owner: 'ann', name: 'Tom', tags: [] });
    await tx.commit();
    const del = new Tx(first);
    del.delete(pets, '2');
    await del.commit();
    await first.close();

    const second = await DexieStore.open(name);
    expect(await second.scan('pets')).toEqual([{ id: '1', owner: 'ann', name: 'Rex', tags: ['dog'] }]);
    expect(await second.query('pets', 'tag=dog')).toHaveLength(1);
    await second.close();
  });
});

describe('store contract: dexie write-ahead log', () => {
  it('G1 commits not yet folded into rows survive a crash (reopen without close), and many commits compact', async () => {
    const name = `wal-${++dbCounter}`;
    const first = await DexieStore.open(name);
    for (let i = 1; i <= 300; i++) {
      const tx = new Tx(first);
      tx.put(pets, { id: String(i), owner: i % 2 ? 'ann' : 'bob', name: `p${i}`, tags: [] });
      if (i > 1) tx.delete(pets, String(i - 1));
      await tx.commit();
    }
    // no close(): the last 44 commits are only in the log
    const second = await DexieStore.open(name);
    expect(await second.scan('pets')).toEqual([{ id: '300', owner: 'bob', name: 'p300', tags: [] }]);
    expect(await second.query('pets', 'owner=bob')).toHaveLength(1);
    await second.close();
    await first.close();
  });
});

describe('store contract: values that JSON cannot carry', () => {
  it('G3 bigints, nested nulls and byte arrays survive a logged commit and a crash-replay', async () => {
    const name = `odd-${++dbCounter}`;
    const odd = scratchTable<{ id: string; big: bigint; bytes?: Uint8Array; list: Array<number | null> }>(
      'odd',
    );
    const store = await DexieStore.open(name);
    const tx = new Tx(store);
    tx.put(odd, { id: '1', big: 12345678901234567890n, list: [1, null] });
    tx.put(odd, { id: '2', big: -1n, bytes: new Uint8Array([9, 8]), list: [] });
    await tx.commit();
    const replayed = await DexieStore.open(name);
    expect(await replayed.scan('odd')).toEqual([
      { id: '1', big: 12345678901234567890n, list: [1, null] },
      { id: '2', big: -1n, bytes: new Uint8Array([9, 8]), list: [] },
    ]);
    await replayed.close();
    await store.close();
  });
});

describe('clonePlain', () => {
  it('G3 copies plain records deeply and falls back to structuredClone for other objects', async () => {
    const { clonePlain } = await import('../../engine/store/clone');
    const bytes = new Uint8Array([1, 2]);
    const original = { a: [1, { b: 2n }], c: null, d: 'x', e: bytes };
    const copy = clonePlain(original);
    expect(copy).toEqual(original);
    expect(copy.a).not.toBe(original.a);
    expect(copy.a[1]).not.toBe(original.a[1]);
    expect(copy.e).not.toBe(bytes);
    expect(copy.e).toEqual(bytes);
  });
});
