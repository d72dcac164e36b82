/**
 * L10 (audit): a database outage that answers 503 throughout is told to the operator: a warn line when the
 * storage stops answering, an error line while it stays away, and a line when it is back. PostgreSQL only,
 * reached through a link the test cuts (tests/engine/server/cuttable-link.ts).
 */
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer } from '../../../server/app';
import { configFromEnv } from '../../../server/config';
import { postgresDriver } from '../../../server/sql-driver';
import { SqlStore } from '../../../server/sql-store';
import { cuttableLink } from './cuttable-link';
import { TEST_XPUB } from './serve';
import { dropSchema, freshSchema, sqlKind } from './sql';

const schema = freshSchema();
afterAll(() => (sqlKind === 'postgres' ? dropSchema(schema) : undefined));

interface Line {
  level: number;
  msg: string;
  [field: string]: unknown;
}

describe.runIf(sqlKind === 'postgres')('storage outages in the log (postgres)', () => {
  it('L10 warns when the database stops answering, errors while it stays away, and says when it is back', async () => {
    const link = await cuttableLink(String(process.env['DATABASE_URL']));
    const lines: Line[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const text of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(text) as Line);
        done();
      },
    });
    const server = await startServer({
      config: {
        ...configFromEnv({}),
        port: 0,
        // Files run side by side: the default metrics port (9464) would be taken by whichever started first.
        metricsPort: null,
        settleEveryMs: 0,
        pbkdf2Iterations: 1_000,
        walletXpub: TEST_XPUB,
        databaseUrl: link.url,
        schema,
      },
      storage: await SqlStore.open(await postgresDriver(link.url, { poolSize: 2 }), { schema }),
      logger: { level: 'info', stream },
      outageEscalationMs: 300,
    });
    const site = async () =>
      ((await (await fetch(`${server.url}/api/site/getsite`)).json()) as { code: number }).code;
    const seen = (level: number, pattern: RegExp) =>
      lines.some((line) => line.level === level && pattern.test(line.msg));
    try {
      expect(await site()).toBe(0);
      link.cut();
      await expect.poll(site).toBe(503);
      expect(seen(40, /storage unreachable/)).toBe(true);
      // Still away: an error line (after outageEscalationMs), once, however many calls fail.
      await expect
        .poll(async () => (await site()) === 503 && seen(50, /storage still unreachable/), { timeout: 5_000 })
        .toBe(true);
      link.restore();
      await expect.poll(site, { timeout: 10_000 }).toBe(0);
      const back = lines.find((line) => /storage reachable again/.test(line.msg));
      expect(back).toMatchObject({ level: 40 });
      expect(back?.['failures']).toBeGreaterThan(1);
      expect(back?.['downForMs']).toBeGreaterThan(0);
      expect(lines.filter((line) => /storage still unreachable/.test(line.msg))).toHaveLength(1);
    } finally {
      link.restore();
      await server.close();
      await link.close();
    }
  }, 60_000);
});
