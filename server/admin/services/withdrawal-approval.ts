/**
 * An operator's approval of a withdrawal, maker-checker: above the threshold two different operators
 * approve; the maker's approval is recorded and sends nothing, the last one needed claims the withdrawal,
 * has the gateway sign and broadcast it, and records the hash with the approval and its audit row in one
 * transaction (an advisory lock decides which an approval is). A failed send releases the claim (503); an
 * unknown broadcast stays "sending" for the reconciler; a send whose record failed stays claimed and is
 * logged. docs/OPERATIONS.md "Maker-checker".
 */
import type { AdminWithdrawal } from '../../../contract/admin/model';
import type { Engine } from '../../../engine/index';
import { BroadcastUncertainError, type ChainGateway, type ChainNetwork } from '../../chain/gateway';
import { AdminError, audit, auditNote, inTransaction, isUniqueViolation, type AuditRecord } from '../db';
import { withdrawalWithApprovals } from '../queries/withdrawals';
import type { SqlConnection } from '../../sql-driver';
import type { AdminSql, OperatorContext } from '../route';

export interface ApprovalDeps {
  engine: Engine;
  sql: AdminSql;
  gateways: Partial<Record<ChainNetwork, ChainGateway>>;
  /** Withdrawals strictly above this amount (micro-USDT) need two approvals. */
  thresholdMicro: bigint;
}

const ALREADY_APPROVED = 'You already approved this withdrawal: a second operator must approve it';

/** One approval by `ctx.operator`: the withdrawal as it stands after it. */
export async function approveWithdrawal(
  deps: ApprovalDeps,
  ctx: OperatorContext,
  withdrawalId: string,
): Promise<AdminWithdrawal | undefined> {
  const { driver, schema } = deps.sql;
  const reread = () => withdrawalWithApprovals(driver, schema, withdrawalId, deps.thresholdMicro);
  const before = await reread();
  if (!before) throw new AdminError(404, 'No such withdrawal');
  if (before.status !== 'pending')
    throw new AdminError(409, `This withdrawal is ${before.status}: it can no longer be approved`);
  if (before.approvals.some((a) => a.operatorId === ctx.operator.id))
    throw new AdminError(409, ALREADY_APPROVED);
  const summary = {
    status: before.status,
    approvals: before.approvals.length,
    needed: before.approvalsNeeded,
  };
  // Every audit row of this approval names the withdrawal's state before it.
  const audited = (action: string, after: unknown): AuditRecord => ({
    at: ctx.now,
    operator: ctx.operator,
    action,
    target: `withdrawal:${withdrawalId}`,
    before: summary,
    after,
    ip: ctx.ip,
  });

  // Maker or checker is decided under a lock on this withdrawal's approvals, counting them inside it: two
  // operators approving at once are one maker and one checker, never two makers that both send. A maker's
  // approval is recorded there and then (nothing is sent); a checker's only once it is known what was sent,
  // so an approval answered "nothing was sent" leaves no approval or audit row behind.
  const approvals = await inTransaction(driver, async (c) => {
    await c.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [
      `strata-withdrawal-approval:${schema}:${withdrawalId}`,
    ]);
    const { rows } = await c.query<{ operator_id: string }>(
      `SELECT operator_id FROM ${schema}.withdrawal_approvals WHERE withdrawal_id = $1`,
      [withdrawalId],
    );
    if (rows.some((r) => r.operator_id === ctx.operator.id)) throw new AdminError(409, ALREADY_APPROVED);
    if (rows.length + 1 < before.approvalsNeeded)
      await insertApproval(
        c,
        deps.sql,
        ctx,
        withdrawalId,
        audited('withdrawal.approve', { ...summary, approvals: rows.length + 1 }),
      );
    return rows.length + 1;
  });
  if (approvals < before.approvalsNeeded) return reread();

  // Checker (or the only approval needed): claim, send through the gateway, record the real hash.
  const gateway = deps.gateways[before.network];
  if (!gateway)
    throw new AdminError(503, `No chain gateway is configured for ${before.network}: nothing was sent`);
  const txHash = await send(deps, gateway, withdrawalId, async (after) => {
    // An uncertain outcome may be on chain: the approval is recorded with it, on the operator tables alone
    // (no engine decision is taken).
    await recordApproval(deps.sql, ctx, withdrawalId, audited('withdrawal.approve', after));
  });
  // The hash, the approval and the audit row: one transaction.
  const note = auditNote(audited('withdrawal.approve', { status: 'success', txHash, approvals }), {
    withdrawalId,
    operatorId: ctx.operator.id,
    at: ctx.now,
  });
  try {
    await deps.engine.operations.completeWithdrawal(withdrawalId, txHash, note);
  } catch (error) {
    // On chain, but not on record: it stays claimed (sending), as after an uncertain broadcast.
    ctx.log.error({ err: error, withdrawalId, txHash }, 'withdrawal sent but not recorded');
    throw new AdminError(
      503,
      `Sent as ${txHash}, but recording it failed: the withdrawal stays "sending" until the chain is checked`,
    );
  }
  return reread();
}

/** The approval row and its audit row, one transaction; the same operator twice is 409. */
function recordApproval(
  sql: AdminSql,
  ctx: OperatorContext,
  withdrawalId: string,
  record: AuditRecord,
): Promise<void> {
  return inTransaction(sql.driver, (c) => insertApproval(c, sql, ctx, withdrawalId, record));
}

async function insertApproval(
  c: SqlConnection,
  sql: AdminSql,
  ctx: OperatorContext,
  withdrawalId: string,
  record: AuditRecord,
): Promise<void> {
  try {
    await c.query('SAVEPOINT approve');
    await c.query(
      `INSERT INTO ${sql.schema}.withdrawal_approvals (withdrawal_id, operator_id, at) VALUES ($1, $2, $3)`,
      [withdrawalId, ctx.operator.id, ctx.now],
    );
    await c.query('RELEASE SAVEPOINT approve');
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    await c.query('ROLLBACK TO SAVEPOINT approve');
    throw new AdminError(409, ALREADY_APPROVED);
  }
  await audit(c, sql.schema, record);
}

/**
 * Claims the withdrawal and has the gateway sign and broadcast it: its hash. The signed transaction is
 * recorded before the broadcast, for the reconciler of uncertain ones; if the claim is gone by then (an
 * operator released it meanwhile), nothing is broadcast. `onUncertain` records an unknown outcome.
 */
async function send(
  deps: ApprovalDeps,
  gateway: ChainGateway,
  withdrawalId: string,
  onUncertain: (after: Record<string, unknown>) => Promise<void>,
): Promise<string> {
  const { operations } = deps.engine;
  const claim = await operations.claimWithdrawal(withdrawalId);
  if (!claim) throw new AdminError(409, 'This withdrawal is no longer pending or is being sent');
  try {
    const { txHash } = await gateway.sendWithdrawal({
      id: claim.id,
      to: claim.address,
      amount: claim.amount,
      onSigned: async (sent) => {
        if (!(await operations.recordBroadcast(claim.id, sent)))
          throw new Error(
            'the withdrawal is no longer being sent (released meanwhile): nothing was broadcast',
          );
      },
    });
    return txHash;
  } catch (error) {
    if (error instanceof BroadcastUncertainError) {
      // It may be on chain: it stays claimed (sending); the approval and the hash are on record.
      await onUncertain({ status: 'sending', txHash: error.txHash, uncertain: true });
      throw error;
    }
    await operations.releaseWithdrawal(withdrawalId);
    throw new AdminError(503, `The chain gateway refused to send: ${(error as Error).message}`.slice(0, 300));
  }
}
