/**
 * The PostgreSQL schema of the SQL store, as versioned migrations run by umzug: one SQL table per engine
 * table (`ENGINE_TABLES`; a test fails when an engine table has none), each with `id`, `ix text[]` (GIN) and
 * `v jsonb`, plus typed columns generated from `v` that carry the ledger's constraints (L1, L4, one sync
 * result per mutation, member references deferred to COMMIT). All pending migrations run in ONE transaction
 * under an advisory lock. Tables and constraints: docs/SERVER.md "Storage"; running them: docs/DEPLOY.md
 * "Database and migrations".
 */
import { Umzug, type MigrationParams, type UmzugStorage } from 'umzug';
import { auditSystemActor, depositApprovals, operatorsAndAudit } from './admin/migration';
import { marketTables } from './market-data/migration';
import type { MigrationContext, SqlConnection } from './sql-driver';
import { uploadStoreTables } from './upload-store';

/** The tables migration 0001 created (frozen: a later table gets a migration of its own, as 0004 does). */
const TABLES_0001: Readonly<Record<string, string>> = {
  members: 'members',
  sessions: 'sessions',
  captchas: 'captchas',
  certs: 'member_certs',
  files: 'uploads',
  rateLimits: 'rate_limits',
  counters: 'id_counters',
  balances: 'ledger_balances',
  journal: 'ledger_entries',
  holds: 'ledger_holds',
  deposits: 'deposits',
  depositAddresses: 'deposit_addresses',
  chainTxs: 'chain_txs',
  withdrawals: 'withdrawals',
  transfers: 'transfers',
  receiveTotals: 'transfer_receive_totals',
  vipRecords: 'vip_records',
  financeOrders: 'finance_subscriptions',
  financeRounds: 'finance_rounds',
  profitLog: 'finance_profit_log',
  tradeOrders: 'trade_orders',
  positions: 'trade_positions',
  tradingSettings: 'trade_settings',
  pledges: 'mining_pledges',
  bankCards: 'bank_cards',
  syncResults: 'sync_results',
  syncMeta: 'sync_meta',
  changes: 'sync_changes',
  jobs: 'jobs',
  deadJobs: 'dead_jobs',
  hookState: 'hook_state',
  meta: 'site_meta',
};

/** Tables added after 0001, each by the migration named beside it. */
const TABLES_0004: Readonly<Record<string, string>> = {
  fundingPayments: 'funding_payments',
  chainDeposits: 'chain_deposits',
};

/** Member security (issue 27): two-factor authentication, passkeys, devices, login history, notices. */
const TABLES_0008: Readonly<Record<string, string>> = {
  memberSecurity: 'member_security',
  passkeys: 'member_passkeys',
  passkeyChallenges: 'passkey_challenges',
  knownDevices: 'member_devices',
  logins: 'member_logins',
  notices: 'member_notices',
};

/** The kill switch (engine/trading/house.ts), with the live market's tables (server/market-data/migration.ts). */
const TABLES_0009: Readonly<Record<string, string>> = {
  tradingHalts: 'trading_halts',
};

/** The withdrawal address book (issue 27 item 3): saved addresses and the whitelist setting. */
const TABLES_0010: Readonly<Record<string, string>> = {
  savedAddresses: 'member_saved_addresses',
  addressBookSettings: 'member_address_book',
};

/** Price alerts and the margin warnings sent (issue 26 item 4). */
const TABLES_0012: Readonly<Record<string, string>> = {
  priceAlerts: 'member_price_alerts',
  marginWarnings: 'member_margin_warnings',
};

/** The member's favourite pairs (issue 26 item 3). */
const TABLES_0013: Readonly<Record<string, string>> = {
  favourites: 'member_favourite_pairs',
};

/** Proof of reserves (issue 27 item 7): the signed snapshots and each member's leaf in the latest one. */
const TABLES_0015: Readonly<Record<string, string>> = {
  reserveSnapshots: 'reserve_snapshots',
  reserveLeaves: 'reserve_leaves',
};

/** Market impact (issue 24 item 5): what members' orders took from each side of a book, refilling. */
const TABLES_0016: Readonly<Record<string, string>> = {
  bookImpact: 'market_book_impact',
};

/** How far each member has read their notices (issue 26 item 4): one row per member. */
const TABLES_0017: Readonly<Record<string, string>> = {
  noticeReads: 'member_notice_reads',
};

/** Engine table name -> SQL table name. Migrations add entries; the catalogue table records them too. */
export const ENGINE_TABLES: Readonly<Record<string, string>> = {
  ...TABLES_0001,
  ...TABLES_0004,
  ...TABLES_0008,
  ...TABLES_0009,
  ...TABLES_0010,
  ...TABLES_0012,
  ...TABLES_0013,
  ...TABLES_0015,
  ...TABLES_0016,
  ...TABLES_0017,
};

const gen = (type: string, expr: string) => `${type} GENERATED ALWAYS AS (${expr}) STORED`;
const text = (field: string) => gen('text', `v->>'${field}'`);
/** Integers that must be exact (micro-USDT amounts, counters): a fraction is refused. */
const big = (field: string) => gen('bigint', `(v->>'${field}')::bigint`);
/** Times in ms: the engine's clock may carry a fraction of a millisecond, kept in `v`, floored here. */
const time = (field: string) => gen('bigint', `floor((v->>'${field}')::numeric)::bigint`);
const member = (s: string, field = 'memberId') =>
  `${text(field)} REFERENCES ${s}.members (id) DEFERRABLE INITIALLY DEFERRED`;

/** Typed columns and constraints of each table, after the store's (id, ix, v). */
function typedColumns(s: string): Record<string, string[]> {
  const memberOwned = (...more: string[]) => [`member_id ${member(s)}`, ...more];
  return {
    members: [
      `username_key ${text('usernameKey')} NOT NULL`,
      `created_at ${time('createdAt')}`,
      `UNIQUE (username_key)`,
    ],
    sessions: memberOwned(`expires_at ${time('expiresAt')}`),
    captchas: [],
    member_certs: memberOwned(),
    uploads: memberOwned(),
    rate_limits: [],
    id_counters: [`value ${big('value')} NOT NULL`],
    ledger_balances: [
      `account ${text('account')} NOT NULL`,
      `asset ${text('asset')} NOT NULL`,
      `amount ${big('amount')} NOT NULL`,
      `owner ${member(s, 'owner')}`,
      `UNIQUE (account, asset)`,
      // L4: member and platform money never goes negative; world:/house: accounts mirror the outside.
      `CONSTRAINT balance_not_negative CHECK (amount >= 0 OR NOT (account LIKE 'user:%' OR account LIKE 'platform:%'))`,
    ],
    ledger_entries: [
      `at ${time('at')} NOT NULL`,
      `kind ${text('kind')} NOT NULL`,
      `ref ${text('ref')}`,
      // L1: every entry is balanced per asset.
      `CONSTRAINT entry_balanced CHECK (${s}.strata_legs_balanced(v->'legs'))`,
    ],
    ledger_holds: memberOwned(
      `amount ${big('amount')} NOT NULL CHECK (amount > 0)`,
      `status ${text('status')} NOT NULL CHECK (status IN ('held', 'released', 'captured'))`,
    ),
    deposits: memberOwned(`amount ${big('amount')} NOT NULL CHECK (amount >= 0)`, `status ${text('status')}`),
    deposit_addresses: [],
    chain_txs: [],
    withdrawals: memberOwned(
      `amount ${big('amount')} NOT NULL CHECK (amount > 0)`,
      `status ${text('status')} NOT NULL`,
    ),
    transfers: [
      `from_id ${member(s, 'fromId')} NOT NULL`,
      `to_id ${member(s, 'toId')} NOT NULL`,
      // The transfer record keeps the wire's decimal amount; the money itself moved in ledger_entries.
      `amount ${gen('numeric', `(v->>'amount')::numeric`)} NOT NULL CHECK (amount > 0)`,
      `created_at ${time('createdAt')}`,
    ],
    transfer_receive_totals: [`amount ${big('amount')} NOT NULL CHECK (amount >= 0)`],
    vip_records: memberOwned(),
    finance_subscriptions: memberOwned(`amount ${big('amount')} NOT NULL CHECK (amount >= 0)`),
    finance_rounds: [],
    finance_profit_log: memberOwned(),
    trade_orders: memberOwned(),
    trade_positions: memberOwned(),
    trade_settings: [],
    mining_pledges: memberOwned(),
    bank_cards: memberOwned(),
    sync_results: memberOwned(
      `mutation_id ${text('mutationId')} NOT NULL`,
      `at ${time('at')}`,
      `UNIQUE (member_id, mutation_id)`,
    ),
    sync_meta: [],
    sync_changes: memberOwned(`seq ${big('seq')} NOT NULL`),
    jobs: [`kind ${text('kind')} NOT NULL`, `due_at ${time('dueAt')} NOT NULL`],
    dead_jobs: [],
    hook_state: [],
    site_meta: [],
    // 0004
    funding_payments: memberOwned(`amount ${big('amount')} NOT NULL`, `at ${time('at')} NOT NULL`),
    chain_deposits: [
      `status ${text('status')} NOT NULL CHECK (status IN ('pending', 'confirmed', 'dropped'))`,
    ],
    // 0008
    member_security: memberOwned(),
    member_passkeys: memberOwned(),
    passkey_challenges: [`expires_at ${time('expiresAt')} NOT NULL`],
    member_devices: memberOwned(),
    member_logins: memberOwned(`at ${time('at')} NOT NULL`),
    member_notices: memberOwned(`created_at ${time('createdAt')} NOT NULL`),
    // 0009
    trading_halts: [],
    // 0010: one entry per member, network and address; the hold's end as a typed column.
    member_saved_addresses: memberOwned(
      `network ${text('network')} NOT NULL CHECK (network IN ('TRC20', 'ERC20'))`,
      `address ${text('address')} NOT NULL`,
      `usable_at ${time('usableAt')} NOT NULL`,
      `UNIQUE (member_id, network, address)`,
    ),
    member_address_book: memberOwned(),
    // 0012
    member_price_alerts: memberOwned(
      `status ${text('status')} NOT NULL CHECK (status IN ('active', 'fired', 'cancelled'))`,
    ),
    member_margin_warnings: memberOwned(),
    // 0013: one row per member and pair while it is a favourite.
    member_favourite_pairs: memberOwned(`symbol ${text('symbol')} NOT NULL`, `UNIQUE (member_id, symbol)`),
    // 0015: a snapshot's time and total as typed columns (the console reads the latest); a leaf per member.
    reserve_snapshots: [`at ${time('time')} NOT NULL`, `total ${big('total')} NOT NULL CHECK (total >= 0)`],
    reserve_leaves: memberOwned(),
    // 0016: one row per market, pair and book side.
    market_book_impact: [
      `missing ${big('missing')} NOT NULL CHECK (missing >= 0)`,
      `at ${time('at')} NOT NULL`,
    ],
    // 0017: the newest notice id the member has seen, one row per member.
    member_notice_reads: memberOwned(`seen ${big('seen')} NOT NULL CHECK (seen > 0)`, `UNIQUE (member_id)`),
  };
}

/** One engine table's SQL table: (id, ix, v), its typed columns, its index keys' GIN index, its catalogue row. */
async function createTable(c: SqlConnection, s: string, name: string, sqlName: string): Promise<void> {
  const extra = typedColumns(s)[sqlName] ?? [];
  await c.query(
    `CREATE TABLE ${s}.${sqlName} (id text PRIMARY KEY, ix text[] NOT NULL DEFAULT '{}', v jsonb NOT NULL` +
      extra.map((col) => `, ${col}`).join('') +
      ')',
  );
  // The engine's declared indexes: one GIN index over the index keys (fastupdate off: no pending list, so
  // an index query never has to sift unmerged entries).
  await c.query(`CREATE INDEX ${sqlName}_ix ON ${s}.${sqlName} USING gin (ix) WITH (fastupdate = off)`);
  await c.query(`INSERT INTO ${s}.strata_tables (name, sql_name) VALUES ($1, $2)`, [name, sqlName]);
  // Rows the first layout kept for this table move here.
  await c.query(
    `WITH moved AS (DELETE FROM ${s}.strata_rows WHERE t = $1 RETURNING id, ix, v) ` +
      `INSERT INTO ${s}.${sqlName} (id, ix, v) SELECT id, ix, v FROM moved`,
    [name],
  );
}

async function initial({ c, s }: MigrationContext): Promise<void> {
  // The first layout (kept for tables without a migration): created here on a fresh database.
  await c.query(
    `CREATE TABLE IF NOT EXISTS ${s}.strata_rows (t text NOT NULL, id text NOT NULL, ` +
      `ix text[] NOT NULL, v jsonb NOT NULL, PRIMARY KEY (t, id))`,
  );
  await c.query(
    `CREATE INDEX IF NOT EXISTS strata_rows_ix ON ${s}.strata_rows USING gin (ix) WITH (fastupdate = off)`,
  );
  await c.query(`CREATE TABLE ${s}.strata_tables (name text PRIMARY KEY, sql_name text NOT NULL UNIQUE)`);
  await c.query(`
    CREATE FUNCTION ${s}.strata_legs_balanced(legs jsonb) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
      SELECT jsonb_typeof(legs) = 'array' AND jsonb_array_length(legs) >= 2 AND NOT EXISTS (
        SELECT 1 FROM jsonb_array_elements(legs) AS l
        GROUP BY l->>'asset' HAVING sum((l->>'amount')::numeric) <> 0)
    $$`);
  // members first: the other tables reference it.
  const order = Object.entries(TABLES_0001).sort(
    ([a], [b]) => Number(b === 'members') - Number(a === 'members'),
  );
  for (const [name, sqlName] of order) await createTable(c, s, name, sqlName);
  for (const sqlName of ['sessions', 'uploads', 'ledger_holds', 'deposits', 'withdrawals', 'sync_changes'])
    await c.query(`CREATE INDEX ${sqlName}_member ON ${s}.${sqlName} (member_id)`);
  await c.query(`CREATE INDEX ledger_balances_owner ON ${s}.ledger_balances (owner)`);
  await c.query(`CREATE INDEX transfers_from ON ${s}.transfers (from_id)`);
  await c.query(`CREATE INDEX transfers_to ON ${s}.transfers (to_id)`);
  await c.query(`CREATE INDEX jobs_due ON ${s}.jobs (due_at, id)`);
  await c.query(`CREATE INDEX ledger_entries_at ON ${s}.ledger_entries (at)`);
  await c.query(`DROP TABLE IF EXISTS ${s}.strata_meta`);
}

/**
 * Several instances on one database (server/cluster.ts, server/events.ts): leases (one row per lease, renewed
 * by its holder, taken over once expired) and feed messages too large for a NOTIFY payload.
 */
async function cluster({ c, s }: MigrationContext): Promise<void> {
  await c.query(
    `CREATE TABLE ${s}.strata_leases (name text PRIMARY KEY, holder text NOT NULL, expires_at timestamptz NOT NULL)`,
  );
  await c.query(
    `CREATE TABLE ${s}.strata_events (id bigserial PRIMARY KEY, message jsonb NOT NULL, at timestamptz NOT NULL DEFAULT now())`,
  );
}

/**
 * Id kinds (engine/ids.ts) served by PostgreSQL sequences instead of a counter row, so concurrent units of
 * work (on any number of instances) never conflict over one hot row. Per-member sequences (`sync:<id>`,
 * whose order must follow commit order) stay counter rows.
 */
const SEQUENCED_KINDS_0003: readonly string[] = [
  'member',
  'journal',
  'hold',
  'transfer',
  'accountTransfer',
  'deposit',
  'withdrawal',
  'chainTx',
  'tradeOrder',
  'position',
  'vipRecord',
  'financeOrder',
  'profit',
  'pledge',
  'job',
  'deadJob',
  'captcha',
  'file',
  'cert',
  'bankCard',
  'buycoin',
  'note',
  'secret',
];

/** Kinds given a sequence by a later migration, each beside it. */
const SEQUENCED_KINDS_0008: readonly string[] = ['login', 'notice'];

const SEQUENCED_KINDS_0010: readonly string[] = ['savedAddress'];

const SEQUENCED_KINDS_0012: readonly string[] = ['priceAlert'];

export const SEQUENCED_KINDS: readonly string[] = [
  ...SEQUENCED_KINDS_0003,
  ...SEQUENCED_KINDS_0008,
  ...SEQUENCED_KINDS_0010,
  ...SEQUENCED_KINDS_0012,
];

export function sequenceOf(kind: string): string {
  return `id_seq_${kind.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}`;
}

/** Sequences per id kind, continuing from the counter rows written before them. */
async function sequences({ c, s }: MigrationContext): Promise<void> {
  await createSequences(c, s, SEQUENCED_KINDS_0003);
}

async function createSequences(c: SqlConnection, s: string, kinds: readonly string[]): Promise<void> {
  for (const kind of kinds) {
    const seq = `${s}.${sequenceOf(kind)}`;
    const base = kind === 'member' ? 100_000 : 0;
    await c.query(`CREATE SEQUENCE ${seq} AS bigint MINVALUE 0 START WITH ${base + 1}`);
    await c.query(`SELECT setval('${seq}', value) FROM ${s}.id_counters WHERE id = $1`, [kind]);
  }
}

/** Contract funding payments (issue 13) and chain-gateway deposit observations (issue 12). */
async function fundingAndChainDeposits({ c, s }: MigrationContext): Promise<void> {
  for (const [name, sqlName] of Object.entries(TABLES_0004)) await createTable(c, s, name, sqlName);
  await c.query(`CREATE INDEX funding_payments_member ON ${s}.funding_payments (member_id)`);
}

/** Member security (issue 27): its tables, their member indexes, and the sequences of its id kinds. */
async function memberSecurityTables({ c, s }: MigrationContext): Promise<void> {
  for (const [name, sqlName] of Object.entries(TABLES_0008)) await createTable(c, s, name, sqlName);
  for (const sqlName of ['member_passkeys', 'member_devices', 'member_logins', 'member_notices'])
    await c.query(`CREATE INDEX ${sqlName}_member ON ${s}.${sqlName} (member_id)`);
  await createSequences(c, s, SEQUENCED_KINDS_0008);
}

/**
 * L1's check (`entry_balanced`) as PL/pgSQL, same answer for every input. Migration 0001's function is a SQL
 * function whose body holds a subquery, so PostgreSQL cannot inline it and re-plans it for every statement
 * that inserts an entry (~0.28 ms of a transfer's ~2 ms in PostgreSQL). PL/pgSQL keeps its plan for the
 * session, and an entry of two legs (every transfer, deposit credit and fee) is checked by plain expressions
 * that reproduce the grouped sum exactly: legs of one asset (NULL counted as one asset, as GROUP BY does) sum
 * to zero, legs of two assets are each zero, a NULL amount counts as nothing. Other entries run the same
 * grouped query as before. tests/engine/server/sql-schema.test.ts compares both functions on edge cases.
 */
export const LEGS_BALANCED_0001 = `SELECT jsonb_typeof(legs) = 'array' AND jsonb_array_length(legs) >= 2 AND NOT EXISTS (
        SELECT 1 FROM jsonb_array_elements(legs) AS l
        GROUP BY l->>'asset' HAVING sum((l->>'amount')::numeric) <> 0)`;

async function legsBalancedPlpgsql({ c, s }: MigrationContext): Promise<void> {
  await c.query(`
    CREATE OR REPLACE FUNCTION ${s}.strata_legs_balanced(legs jsonb) RETURNS boolean
    LANGUAGE plpgsql IMMUTABLE AS $$
    DECLARE
      a0 numeric;
      a1 numeric;
    BEGIN
      IF jsonb_typeof(legs) = 'array' AND jsonb_array_length(legs) = 2 THEN
        a0 := coalesce((legs->0->>'amount')::numeric, 0);
        a1 := coalesce((legs->1->>'amount')::numeric, 0);
        IF (legs->0->>'asset') IS NOT DISTINCT FROM (legs->1->>'asset') THEN
          RETURN a0 + a1 = 0;
        END IF;
        RETURN a0 = 0 AND a1 = 0;
      END IF;
      RETURN (${LEGS_BALANCED_0001});
    END
    $$`);
}

/** Live market data (issue 28): the kill switch's engine table, the index's candles and minute samples. */
async function market({ c, s }: MigrationContext): Promise<void> {
  for (const [name, sqlName] of Object.entries(TABLES_0009)) await createTable(c, s, name, sqlName);
  await marketTables({ c, s });
}

/** The withdrawal address book (issue 27 item 3): its tables and the sequence of its ids. */
async function addressBook({ c, s }: MigrationContext): Promise<void> {
  for (const [name, sqlName] of Object.entries(TABLES_0010)) await createTable(c, s, name, sqlName);
  await c.query(`CREATE INDEX member_saved_addresses_member ON ${s}.member_saved_addresses (member_id)`);
  await createSequences(c, s, SEQUENCED_KINDS_0010);
}

/** Price alerts and margin warnings (issue 26 item 4): their tables, member index and the alerts' ids. */
async function priceAlertTables({ c, s }: MigrationContext): Promise<void> {
  for (const [name, sqlName] of Object.entries(TABLES_0012)) await createTable(c, s, name, sqlName);
  await c.query(`CREATE INDEX member_price_alerts_member ON ${s}.member_price_alerts (member_id)`);
  await createSequences(c, s, SEQUENCED_KINDS_0012);
}

/** Favourite pairs (issue 26 item 3): their table and member index (ids are `<member>:<pair>`, no sequence). */
async function favouritePairs({ c, s }: MigrationContext): Promise<void> {
  for (const [name, sqlName] of Object.entries(TABLES_0013)) await createTable(c, s, name, sqlName);
  await c.query(`CREATE INDEX member_favourite_pairs_member ON ${s}.member_favourite_pairs (member_id)`);
}

/** Proof of reserves (issue 27 item 7): its tables; the console reads the latest snapshot by time. */
async function proofOfReserves({ c, s }: MigrationContext): Promise<void> {
  for (const [name, sqlName] of Object.entries(TABLES_0015)) await createTable(c, s, name, sqlName);
  await c.query(`CREATE INDEX reserve_snapshots_at ON ${s}.reserve_snapshots (at)`);
}

/** Market impact: the book's memory of members' orders (engine/trading/impact.ts). */
async function bookImpact({ c, s }: MigrationContext): Promise<void> {
  for (const [name, sqlName] of Object.entries(TABLES_0016)) await createTable(c, s, name, sqlName);
}

/** The notices' read state (issue 26 item 4): one row per member, its id the member's (no sequence). */
async function noticeReadState({ c, s }: MigrationContext): Promise<void> {
  for (const [name, sqlName] of Object.entries(TABLES_0017)) await createTable(c, s, name, sqlName);
}

export const MIGRATIONS: ReadonlyArray<{ name: string; up: (ctx: MigrationContext) => Promise<void> }> = [
  { name: '0001-tables-per-engine-table', up: initial },
  { name: '0002-cluster', up: cluster },
  { name: '0003-id-sequences', up: sequences },
  { name: '0004-funding-and-chain-deposits', up: fundingAndChainDeposits },
  // Back office (server/admin/migration.ts): operators, their sessions, the audit log, settings, approvals.
  { name: '0005-operators-and-audit', up: operatorsAndAudit },
  // The audit log's system actor (the reconciler's decisions).
  { name: '0006-audit-system-actor', up: auditSystemActor },
  // L1's check without a re-plan per inserted entry.
  { name: '0007-legs-balanced-plpgsql', up: legsBalancedPlpgsql },
  // Two-factor authentication, passkeys, devices, login history and notices (issue 27).
  { name: '0008-member-security', up: memberSecurityTables },
  // Live market data: the kill switch, the index's candles and minutes (server/market-data/migration.ts).
  { name: '0009-market-data', up: market },
  // The withdrawal address book and its whitelist (issue 27 item 3).
  { name: '0010-address-book', up: addressBook },
  // Maker-checker for manual deposit credits (server/admin/migration.ts).
  { name: '0011-deposit-approvals', up: depositApprovals },
  // Price alerts and the margin warnings sent (issue 26 item 4).
  { name: '0012-price-alerts', up: priceAlertTables },
  // Favourite pairs, synced to the member's devices (issue 26 item 3).
  { name: '0013-favourite-pairs', up: favouritePairs },
  // Upload bytes streamed in chunks, bounded per client IP and overall (server/upload-store.ts, audit M3).
  { name: '0014-upload-store', up: uploadStoreTables },
  // Proof of reserves: the hourly signed snapshots and the members' leaves (issue 27 item 7).
  { name: '0015-proof-of-reserves', up: proofOfReserves },
  // The book's memory of members' orders (market impact, issue 24 item 5).
  { name: '0016-book-impact', up: bookImpact },
  // How far each member has read their notices, synced to their devices (issue 26 item 4).
  { name: '0017-notice-reads', up: noticeReadState },
];

function storage(): UmzugStorage<MigrationContext> {
  return {
    executed: async ({ context: { c, s } }) =>
      (await c.query<{ name: string }>(`SELECT name FROM ${s}.strata_migrations ORDER BY name`)).rows.map(
        (r) => r.name,
      ),
    logMigration: async ({ name, context: { c, s } }: MigrationParams<MigrationContext>) => {
      await c.query(`INSERT INTO ${s}.strata_migrations (name) VALUES ($1)`, [name]);
    },
    unlogMigration: async ({ name, context: { c, s } }: MigrationParams<MigrationContext>) => {
      await c.query(`DELETE FROM ${s}.strata_migrations WHERE name = $1`, [name]);
    },
  };
}

/**
 * Brings schema `s` up to date on connection `c` (which must not be in a transaction). Returns the names of
 * the migrations it ran.
 */
export async function migrate(c: SqlConnection, s: string): Promise<string[]> {
  await c.query('BEGIN');
  try {
    await c.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`strata-migrate:${s}`]);
    // Created only when missing: the migrations role of a production database owns its schema but may not
    // create schemas in the database (server/db-roles.ts), and IF NOT EXISTS still asks for that right.
    const { rows: present } = await c.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [s]);
    if (present.length === 0) await c.query(`CREATE SCHEMA ${s}`);
    await c.query(
      `CREATE TABLE IF NOT EXISTS ${s}.strata_migrations (name text PRIMARY KEY, run_at timestamptz NOT NULL DEFAULT now())`,
    );
    const umzug = new Umzug<MigrationContext>({
      migrations: MIGRATIONS.map((m) => ({ name: m.name, up: ({ context }) => m.up(context) })),
      context: { c, s },
      storage: storage(),
      logger: undefined,
    });
    const ran = await umzug.up();
    await c.query('COMMIT');
    return ran.map((m) => m.name);
  } catch (error) {
    await c.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
