/**
 * What a live server tells its operator at start, and what it does not pass off as real: with no chain
 * configured, deposits are not watched (a warn line, issue 30 item 5); with no CUSTOMER_SERVICE, members see
 * no contact rather than the demo's made-up address (audit L9). A demo server says neither.
 */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { startServer } from '../../../server/app';
import { configFromEnv, type ServerConfig } from '../../../server/config';
import type { StoreAdapter } from '../../../engine/index';
import { postgresDriver, runsAsSuperuser } from '../../../server/sql-driver';
import { SqlStore } from '../../../server/sql-store';
import { TEST_XPUB } from './serve';
import { dropSchema, freshSchema } from './sql';

const DATABASE_URL = process.env['DATABASE_URL'];

interface Line {
  level: number;
  msg: string;
}

async function started(config: Partial<ServerConfig>, storage: StoreAdapter | 'memory' = 'memory') {
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
      ...config,
    },
    storage,
    logger: { level: 'info', stream },
    hashThreads: 1,
  });
  const site = (await (await fetch(`${server.url}/api/site/getsite`)).json()) as {
    data: { customerservice: string };
  };
  await server.close();
  return { warnings: lines.filter((l) => l.level === 40).map((l) => l.msg), site: site.data };
}

describe('start notices', () => {
  it('L9, item 5: a live server without chain settings or CUSTOMER_SERVICE says so, and shows no demo contact', async () => {
    const live = await started({ demo: false });
    expect(live.site.customerservice).toBe('');
    expect(live.warnings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/no chain is configured .*deposits are not watched/),
        expect.stringMatching(/CUSTOMER_SERVICE is not set/),
      ]),
    );
    const contact = await started({ demo: false, customerService: 'help@exchange.example' });
    expect(contact.site.customerservice).toBe('help@exchange.example');
    expect(contact.warnings.some((w) => /CUSTOMER_SERVICE/.test(w))).toBe(false);

    const demo = await started({ demo: true, walletXpub: undefined });
    expect(demo.site.customerservice).toMatch(/\(demo\)/);
    expect(demo.warnings).toEqual([]);
  });

  it.skipIf(!DATABASE_URL)(
    'L7 a server whose database role is a PostgreSQL superuser says so at start',
    async () => {
      const url = DATABASE_URL as string;
      const schema = freshSchema();
      try {
        const superuser = await started(
          { demo: true, walletXpub: undefined, databaseUrl: url },
          await SqlStore.open(await postgresDriver(url), { schema }),
        );
        expect(superuser.warnings).toEqual([expect.stringMatching(/is a PostgreSQL superuser/)]);
      } finally {
        await dropSchema(schema);
      }
      // A role without SUPERUSER is not warned about.
      const role = `strata_plain_${process.pid}`;
      const admin = await postgresDriver(url);
      await admin.query(`CREATE ROLE ${role} LOGIN`);
      try {
        const plain = await postgresDriver(url.replace('//postgres@', `//${role}@`));
        expect(await runsAsSuperuser(plain)).toBe(false);
        await plain.close();
        expect(await runsAsSuperuser(admin)).toBe(true);
      } finally {
        await admin.query(`DROP ROLE ${role}`);
        await admin.close();
      }
    },
  );
});
