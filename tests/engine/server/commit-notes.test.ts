/**
 * Commit notes on the SQL store (server/sql-store.ts, engine/store/port.ts CommitNote): a note is written by
 * its kind's writer in the same transaction as the unit's rows, so both commit or neither does; a note
 * without a writer, or a writer that fails, fails the commit with CommitNoteError and nothing written; a
 * serialization failure in a writer is retried like any write. Through the engine, a decision attaches its
 * note only when it is taken, and the memory store (the browser's) ignores notes. PGlite, or PostgreSQL when
 * DATABASE_URL is set.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommitNote } from '../../../engine/index';
import { CommitNoteError, SqlStore } from '../../../server/sql-store';
import { harness, signUp } from '../harness';
import { dropSchema, freshSchema, sqlKind, testDriver } from './sql';

interface SeenNote extends CommitNote {
  kind: 'seen';
  text: string;
}

const schema = freshSchema();
let store: SqlStore;
let failNext: unknown = null;

const row = (id: string) => ({ table: 'note_rows', id, ix: [], value: { id } });
const note = (text: string): SeenNote => ({ kind: 'seen', text });

async function seen(): Promise<string[]> {
  const { rows } = await store.driver.query<{ text: string }>(
    `SELECT text FROM ${schema}.seen ORDER BY text`,
  );
  return rows.map((r) => r.text);
}

async function stored(): Promise<string[]> {
  return ((await store.scan('note_rows')) as Array<{ id: string }>).map((r) => r.id);
}

beforeAll(async () => {
  store = await SqlStore.open(await testDriver(), { schema });
  await store.driver.query(`CREATE TABLE ${schema}.seen (text text PRIMARY KEY)`);
  store.writeNotesWith<SeenNote>('seen', async (c, s, n) => {
    if (failNext) {
      const error = failNext;
      failNext = null;
      throw error;
    }
    await c.query(`INSERT INTO ${s}.seen (text) VALUES ($1)`, [n.text]);
  });
}, 60_000);

afterAll(async () => {
  await store.close();
  await dropSchema(schema);
});

describe(`commit notes (${sqlKind})`, () => {
  it('rows and notes commit together; a note alone is a commit too', async () => {
    await store.commit([row('1')], [], [note('a'), note('b')]);
    expect(await stored()).toEqual(['1']);
    expect(await seen()).toEqual(['a', 'b']);
    await store.commit([], [], [note('c')]);
    expect(await seen()).toEqual(['a', 'b', 'c']);
  });

  it('a note without a writer, or a failing writer, commits nothing', async () => {
    await expect(store.commit([row('2')], [], [{ kind: 'unknown' }])).rejects.toBeInstanceOf(CommitNoteError);
    failNext = Object.assign(new Error('check constraint'), { code: '23514' });
    const failed = store.commit([row('3')], [], [note('d')]);
    await expect(failed).rejects.toBeInstanceOf(CommitNoteError);
    await expect(failed).rejects.toMatchObject({ kind: 'seen', cause: { code: '23514' } });
    expect(await stored()).toEqual(['1']);
    expect(await seen()).toEqual(['a', 'b', 'c']);
  });

  it('a serialization failure in a writer runs the unit again, which then commits once', async () => {
    const retries = store.retries;
    failNext = Object.assign(new Error('could not serialize access'), { code: '40001' });
    await store.commit([row('4')], [], [note('e')]);
    expect(store.retries).toBe(retries + 1);
    expect(await stored()).toEqual(['1', '4']);
    expect(await seen()).toEqual(['a', 'b', 'c', 'e']);
  });

  it('engine.operations write a note with a decision taken only; the memory store ignores notes', async () => {
    // An engine on its own store over the same schema, as the server's.
    const engineStore = await SqlStore.open(await testDriver(), { schema });
    engineStore.writeNotesWith<SeenNote>('seen', async (c, s, n) => {
      await c.query(`INSERT INTO ${s}.seen (text) VALUES ($1)`, [n.text]);
    });
    const h = await harness({ storage: engineStore });
    const ann = await signUp(h, 'ann');
    try {
      expect(await h.engine.operations.setMemberLocked(ann.id, true, note('lock ann'))).toBe(true);
      // Nothing to decide: false, and the note is not written.
      expect(await h.engine.operations.setMemberLocked('404', true, note('lock nobody'))).toBe(false);
      expect(await h.engine.operations.creditDeposit('404', note('credit nothing'))).toBe(false);
      expect(await seen()).toEqual(['a', 'b', 'c', 'e', 'lock ann']);
      expect((await h.call('/api/user/getuser', undefined, ann)).code).toBe(401);
    } finally {
      await h.engine.close();
    }

    const memory = await harness();
    const bob = await signUp(memory, 'bob');
    expect(await memory.engine.operations.setMemberLocked(bob.id, true, note('ignored'))).toBe(true);
    expect((await memory.call('/api/user/getuser', undefined, bob)).code).toBe(401);
  });
});
