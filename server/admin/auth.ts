/**
 * Operator accounts and sessions (docs/OPERATIONS.md "Operators and roles"): password (PBKDF2, the members'
 * hashing: engine/security/hashing.ts) plus a TOTP code (otplib, RFC 6238, 30 s steps, one step of drift
 * either way, each step accepted once), five failures in a row lock the operator out for 15 minutes, and
 * sessions live 8 hours. The token is 256 random bits handed out once; only its SHA-256 is stored.
 */
import { createHash, randomBytes } from 'node:crypto';
import { generateSecret, generateURI, verify } from 'otplib';
import type { SqlConnection, SqlDriver } from '../sql-driver';
import { OPERATOR_USERNAME, ROLES, type Operator, type OperatorRole } from '../../contract/admin/model';
import {
  AdminError,
  audit,
  inTransaction,
  isUniqueViolation,
  OPERATOR_COLUMNS,
  operatorView,
  seconds,
  type OperatorRow,
} from './db';
import type { Hasher } from '../../engine/index';
import { dummyHash, hashSecret, verifySecret } from '../../engine/server';

export const SESSION_MS = 8 * 60 * 60 * 1000;
export const LOGIN_FAIL_LIMIT = 5;
export const LOCKOUT_MS = 15 * 60 * 1000;
export const TOTP_ISSUER = 'Strata back office';
/** A stand-in TOTP key for unknown usernames, so their answer takes the same work (never matches a real one). */
const DUMMY_TOTP = 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

export const USERNAME = OPERATOR_USERNAME;
export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 256;

export const tokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');

/** The TOTP time step the code matched (checked at `nowMs`), or null when it does not match. */
export async function checkTotp(secret: string, code: string, nowMs: number): Promise<number | null> {
  if (!/^\d{6}$/.test(code)) return null;
  try {
    const epoch = Math.floor(nowMs / 1000);
    const result = await verify({ secret, token: code, epoch, epochTolerance: 30 });
    return result.valid ? Math.floor(epoch / 30) + result.delta : null;
  } catch {
    return null;
  }
}

export function passwordProblem(password: string): string | null {
  if (password.length < PASSWORD_MIN) return `The password needs at least ${PASSWORD_MIN} characters`;
  if (password.length > PASSWORD_MAX) return `The password may have at most ${PASSWORD_MAX} characters`;
  return null;
}

export interface CreatedOperator {
  operator: Operator;
  row: OperatorRow;
  totpSecret: string;
  otpauthUrl: string;
}

/** An operator to create: checked, its password already hashed (newOperator). */
export interface NewOperator {
  username: string;
  role: OperatorRole;
  passwordHash: string;
}

/**
 * Checks a new operator's fields and hashes the password, before any transaction is opened: the hash (with
 * `hasher`, the server's worker pool) never runs while a transaction holds a connection (docs/SERVER.md
 * "Hashing pool").
 */
export async function newOperator(
  input: { username: string; password: string; role: OperatorRole },
  iterations: number,
  hasher?: Hasher,
): Promise<NewOperator> {
  if (!USERNAME.test(input.username))
    throw new AdminError(400, 'The username must be 3-32 letters, digits, ".", "_" or "-"');
  const problem = passwordProblem(input.password);
  if (problem) throw new AdminError(400, problem);
  if (!(ROLES as readonly string[]).includes(input.role))
    throw new AdminError(400, 'The role must be reviewer, finance or admin');
  const passwordHash = await hashSecret(input.password, randomBytes(16), iterations, hasher);
  return { username: input.username, role: input.role, passwordHash };
}

/** Creates an operator inside the caller's transaction; 409 when the username is taken (any case). */
export async function insertOperator(
  c: SqlConnection,
  s: string,
  input: NewOperator,
  nowMs: number,
): Promise<CreatedOperator> {
  const totpSecret = generateSecret();
  let row: OperatorRow | undefined;
  try {
    await c.query('SAVEPOINT create_operator');
    ({
      rows: [row],
    } = await c.query<OperatorRow>(
      `INSERT INTO ${s}.operators (username, password_hash, role, totp_secret, created_at) ` +
        `VALUES ($1, $2, $3, $4, $5) RETURNING ${OPERATOR_COLUMNS}`,
      [input.username, input.passwordHash, input.role, totpSecret, Math.floor(nowMs)],
    ));
    await c.query('RELEASE SAVEPOINT create_operator');
  } catch (error) {
    await c.query('ROLLBACK TO SAVEPOINT create_operator').catch(() => undefined);
    if (isUniqueViolation(error)) throw new AdminError(409, 'An operator with this username exists');
    throw error;
  }
  if (!row) throw new Error('operator not created');
  return {
    operator: operatorView(row),
    row,
    totpSecret,
    otpauthUrl: generateURI({ issuer: TOTP_ISSUER, label: row.username, secret: totpSecret }),
  };
}

export interface LoginInput {
  username: string;
  password: string;
  totp: string;
}

export interface LoginResult {
  token: string;
  expiresAt: number;
  operator: Operator;
}

/**
 * Password and TOTP, both always checked (an unknown username against a dummy hash and key of the same cost,
 * and nothing written for it). A known operator's failure is counted; the fifth in a row locks it out for
 * 15 minutes (423), during which even the right credentials are refused.
 */
export async function login(
  driver: SqlDriver,
  s: string,
  input: LoginInput,
  context: { nowMs: number; ip: string; iterations: number; hasher?: Hasher },
): Promise<LoginResult> {
  const { nowMs, ip } = context;
  const { rows } = await driver.query<OperatorRow>(
    `SELECT ${OPERATOR_COLUMNS} FROM ${s}.operators WHERE lower(username) = lower($1)`,
    [input.username],
  );
  const found = rows[0];
  if (found?.locked_until && Number(found.locked_until) > nowMs)
    throw new AdminError(423, lockedMessage(Number(found.locked_until)));
  const passwordOk = await verifySecret(
    input.password,
    found?.password_hash ?? (await dummyHash(context.iterations, context.hasher)),
    context.hasher,
  );
  const step = await checkTotp(found?.totp_secret ?? DUMMY_TOTP, input.totp, nowMs);
  // A code is accepted once: a step at or before the last one used is a replay.
  const totpOk = step !== null && (!found?.totp_last_step || step > Number(found.totp_last_step));
  if (!found) throw new AdminError(401, 'Username, password or code is wrong');
  if (!passwordOk || !totpOk) {
    const locked = await inTransaction(driver, async (c) => {
      const {
        rows: [after],
      } = await c.query<{ failed_logins: number }>(
        `UPDATE ${s}.operators SET failed_logins = failed_logins + 1 WHERE id = $1 RETURNING failed_logins`,
        [found.id],
      );
      const fails = after?.failed_logins ?? 0;
      const lockNow = fails >= LOGIN_FAIL_LIMIT;
      if (lockNow)
        await c.query(`UPDATE ${s}.operators SET failed_logins = 0, locked_until = $2 WHERE id = $1`, [
          found.id,
          Math.floor(nowMs + LOCKOUT_MS),
        ]);
      await audit(c, s, {
        at: nowMs,
        operator: found,
        action: lockNow ? 'operator.lockout' : 'operator.login_failed',
        target: `operator:${found.id}`,
        before: { failedLogins: fails - 1 },
        after: lockNow ? { lockedUntil: seconds(nowMs + LOCKOUT_MS) } : { failedLogins: fails },
        reason: passwordOk ? 'wrong or reused TOTP code' : 'wrong password',
        ip,
      });
      return lockNow;
    });
    if (locked) throw new AdminError(423, lockedMessage(nowMs + LOCKOUT_MS));
    throw new AdminError(401, 'Username, password or code is wrong');
  }
  if (found.disabled) throw new AdminError(403, 'This operator is disabled');
  const token = randomBytes(32).toString('hex');
  const expiresAt = Math.floor(nowMs + SESSION_MS);
  const row = await inTransaction(driver, async (c) => {
    const {
      rows: [updated],
    } = await c.query<OperatorRow>(
      `UPDATE ${s}.operators SET failed_logins = 0, locked_until = NULL, last_login_at = $2, ` +
        `totp_last_step = $3 WHERE id = $1 RETURNING ${OPERATOR_COLUMNS}`,
      [found.id, Math.floor(nowMs), step],
    );
    await c.query(
      `INSERT INTO ${s}.operator_sessions (token_hash, operator_id, created_at, expires_at, ip) ` +
        `VALUES ($1, $2, $3, $4, $5)`,
      [tokenHash(token), found.id, Math.floor(nowMs), expiresAt, ip],
    );
    await audit(c, s, {
      at: nowMs,
      operator: found,
      action: 'operator.login',
      target: `operator:${found.id}`,
      after: { expiresAt: seconds(expiresAt) },
      ip,
    });
    return updated ?? found;
  });
  return { token, expiresAt: seconds(expiresAt), operator: operatorView(row) };
}

function lockedMessage(untilMs: number): string {
  return `Too many failed logins: locked until ${new Date(untilMs).toISOString()}`;
}

export interface OperatorSession {
  operator: OperatorRow;
  tokenHash: string;
}

/** The operator behind `Authorization: Bearer <token>`: 401 without a live session, 403 when disabled. */
export async function authenticate(
  driver: SqlDriver,
  s: string,
  authorization: string | undefined,
  nowMs: number,
): Promise<OperatorSession> {
  const raw = authorization?.trim() ?? '';
  const token = /^bearer\s+/i.test(raw) ? raw.replace(/^bearer\s+/i, '') : raw;
  if (!/^[0-9a-f]{64}$/.test(token)) throw new AdminError(401, 'Operator session required: log in');
  const hash = tokenHash(token);
  const { rows } = await driver.query<OperatorRow & { revoked_at: string | null; expires_at: string }>(
    `SELECT ${OPERATOR_COLUMNS}, x_revoked::text AS revoked_at, x_expires::text AS expires_at FROM ` +
      `(SELECT o.*, x.revoked_at AS x_revoked, x.expires_at AS x_expires FROM ${s}.operator_sessions x ` +
      `JOIN ${s}.operators o ON o.id = x.operator_id WHERE x.token_hash = $1) AS q`,
    [hash],
  );
  const row = rows[0];
  if (!row || row.revoked_at !== null || Number(row.expires_at) <= nowMs)
    throw new AdminError(401, 'Your operator session has expired: log in again');
  if (row.disabled) throw new AdminError(403, 'This operator is disabled');
  return { operator: row, tokenHash: hash };
}
