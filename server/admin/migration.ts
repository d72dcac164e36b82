/**
 * Migration 0005: the back office's own tables, beside the engine's and never read by the engine:
 * `operators`, `operator_sessions` (token hashes only), `audit_log` (append-only: a trigger raises on UPDATE,
 * DELETE and TRUNCATE), `admin_settings` and `withdrawal_approvals` (one row per withdrawal and operator).
 * Times are bigint milliseconds of the server's clock, as in the engine. Columns and why:
 * docs/OPERATIONS.md "Operators and roles", "Maker-checker" and "Audit log".
 */
import type { MigrationContext } from '../sql-driver';

export async function operatorsAndAudit({ c, s }: MigrationContext): Promise<void> {
  await c.query(`
    CREATE TABLE ${s}.operators (
      id bigserial PRIMARY KEY,
      username text NOT NULL CHECK (username ~ '^[A-Za-z0-9_.-]{3,32}$'),
      password_hash text NOT NULL,
      role text NOT NULL CHECK (role IN ('reviewer', 'finance', 'admin')),
      disabled boolean NOT NULL DEFAULT false,
      totp_secret text NOT NULL,
      totp_last_step bigint,
      failed_logins integer NOT NULL DEFAULT 0 CHECK (failed_logins >= 0),
      locked_until bigint,
      created_at bigint NOT NULL,
      last_login_at bigint
    )`);
  await c.query(`CREATE UNIQUE INDEX operators_username ON ${s}.operators (lower(username))`);
  await c.query(`
    CREATE TABLE ${s}.operator_sessions (
      token_hash text PRIMARY KEY,
      operator_id bigint NOT NULL REFERENCES ${s}.operators (id),
      created_at bigint NOT NULL,
      expires_at bigint NOT NULL,
      revoked_at bigint,
      ip text NOT NULL DEFAULT ''
    )`);
  await c.query(`CREATE INDEX operator_sessions_operator ON ${s}.operator_sessions (operator_id)`);
  await c.query(`
    CREATE TABLE ${s}.audit_log (
      id bigserial PRIMARY KEY,
      at bigint NOT NULL,
      operator_id bigint NOT NULL REFERENCES ${s}.operators (id),
      username text NOT NULL,
      role text NOT NULL,
      action text NOT NULL,
      target text NOT NULL,
      before jsonb,
      after jsonb,
      reason text,
      ip text NOT NULL DEFAULT ''
    )`);
  await c.query(`CREATE INDEX audit_log_operator ON ${s}.audit_log (operator_id, id)`);
  await c.query(`CREATE INDEX audit_log_action ON ${s}.audit_log (action, id)`);
  await c.query(`
    CREATE FUNCTION ${s}.audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'audit_log is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
    END
    $$`);
  await c.query(
    `CREATE TRIGGER audit_log_no_change BEFORE UPDATE OR DELETE ON ${s}.audit_log ` +
      `FOR EACH ROW EXECUTE FUNCTION ${s}.audit_log_append_only()`,
  );
  await c.query(
    `CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON ${s}.audit_log ` +
      `FOR EACH STATEMENT EXECUTE FUNCTION ${s}.audit_log_append_only()`,
  );
  await c.query(`CREATE TABLE ${s}.admin_settings (key text PRIMARY KEY, value text NOT NULL)`);
  await c.query(`INSERT INTO ${s}.admin_settings (key, value) VALUES ('makerCheckerThreshold', '10000')`);
  await c.query(`
    CREATE TABLE ${s}.withdrawal_approvals (
      withdrawal_id text NOT NULL,
      operator_id bigint NOT NULL REFERENCES ${s}.operators (id),
      at bigint NOT NULL,
      PRIMARY KEY (withdrawal_id, operator_id)
    )`);
  // The queues read a page newest first per status: these keep that from sorting whole tables.
  await c.query(
    `CREATE INDEX withdrawals_queue ON ${s}.withdrawals (status, ((v->>'createdAt')::numeric) DESC)`,
  );
  await c.query(
    `CREATE INDEX deposits_manual_queue ON ${s}.deposits (status, ((v->>'createdAt')::numeric) DESC) ` +
      `WHERE v->>'source' = 'manual'`,
  );
}

/**
 * Migration 0006 (docs/OPERATIONS.md "Audit log"): the system actor. The server's own decisions (the
 * reconciler completing or releasing a withdrawal whose broadcast got no answer) are audited with no
 * operator: `operator_id` may be NULL, and a CHECK ties that to role `system` (an operator's row keeps its id;
 * a system row cannot name one). ALTER TABLE fires none of the append-only triggers, which stay as they are.
 */
export async function auditSystemActor({ c, s }: MigrationContext): Promise<void> {
  await c.query(`ALTER TABLE ${s}.audit_log ALTER COLUMN operator_id DROP NOT NULL`);
  await c.query(
    `ALTER TABLE ${s}.audit_log ADD CONSTRAINT audit_log_actor ` +
      `CHECK ((operator_id IS NULL AND role = 'system') OR (operator_id IS NOT NULL AND role <> 'system'))`,
  );
}

/**
 * Migration 0011 (docs/OPERATIONS.md "Maker-checker"): manual deposit credits above the maker-checker
 * threshold need two operators, as withdrawals do. One row per (deposit, operator), the primary key making
 * "the same operator twice" impossible in the database too.
 */
export async function depositApprovals({ c, s }: MigrationContext): Promise<void> {
  await c.query(`
    CREATE TABLE ${s}.deposit_approvals (
      deposit_id text NOT NULL,
      operator_id bigint NOT NULL REFERENCES ${s}.operators (id),
      at bigint NOT NULL,
      PRIMARY KEY (deposit_id, operator_id)
    )`);
}
