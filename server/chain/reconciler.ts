/**
 * The reconciler of uncertain broadcasts: a withdrawal stays "sending" when its broadcast got no answer;
 * each round (`watchSends`, on the instance holding the background-work lease) asks the chain where its
 * recorded transaction stands and completes it, releases it to review, or leaves it for a later round.
 * Each decision is logged and audited by the system actor in its own transaction. The table of outcomes:
 * docs/OPERATIONS.md "The reconciler of uncertain broadcasts"; the audit rows: docs/OPERATIONS.md "Audit log".
 */
import type { EngineOperations, SendingWithdrawal } from '../../engine/index';
import { auditNote, SYSTEM_ACTOR, type AuditNote } from '../admin/db';
import type { ChainGateway, SentStatus } from './gateway';
import { periodicRounds } from './rounds';

export interface Reconciled {
  withdrawalId: string;
  txHash: string | null;
  /** completed: recorded as sent with txHash; released: back to review; waiting: left for a later round. */
  action: 'completed' | 'released' | 'waiting';
  /** What the chain said (null: nothing to ask, no transaction was recorded). */
  status: SentStatus | null;
  reason: string;
}

type Operations = Pick<EngineOperations, 'sendingWithdrawals' | 'completeWithdrawal' | 'releaseWithdrawal'>;

function decide(status: SentStatus, confirmations: number): Pick<Reconciled, 'action' | 'reason'> {
  switch (status.state) {
    case 'mined':
      if (!status.success) return { action: 'released', reason: 'mined but failed: nothing was transferred' };
      return status.confirmations >= confirmations
        ? { action: 'completed', reason: `mined, ${status.confirmations} confirmations` }
        : { action: 'waiting', reason: `mined, ${status.confirmations} of ${confirmations} confirmations` };
    case 'pending':
      return { action: 'waiting', reason: "in the node's pool, not mined yet" };
    case 'absent':
      return status.final
        ? {
            action: 'released',
            reason: 'never mined, and it never can be (EVM: its nonce was taken; TRON: it expired)',
          }
        : { action: 'waiting', reason: 'not known to the node (it may still appear)' };
  }
}

/** The system actor's audit row of a reconciler decision (written with the decision, or not at all). */
export function reconcileNote(
  at: number,
  withdrawal: SendingWithdrawal & { broadcast: NonNullable<SendingWithdrawal['broadcast']> },
  decision: { action: 'completed' | 'released'; status: SentStatus; reason: string; confirmations: number },
): AuditNote {
  const { txHash, nonce } = withdrawal.broadcast;
  const chain = { ...decision.status, required: decision.confirmations };
  return auditNote({
    at,
    operator: SYSTEM_ACTOR,
    action:
      decision.action === 'completed' ? 'withdrawal.reconcile_complete' : 'withdrawal.reconcile_release',
    target: `withdrawal:${withdrawal.id}`,
    before: { status: 'sending', network: withdrawal.network, txHash, nonce },
    after:
      decision.action === 'completed'
        ? { status: 'success', txHash, chain }
        : { status: 'pending', txHash: null, chain },
    reason: decision.reason,
    ip: '',
  });
}

/** One round for one gateway: answers what was decided for each withdrawal being sent on its network. */
export async function reconcileRound(
  gateway: ChainGateway,
  operations: Operations,
  options: { confirmations?: number; now?: () => number } = {},
): Promise<Reconciled[]> {
  const confirmations = options.confirmations ?? gateway.confirmations;
  const now = options.now ?? Date.now;
  const outcomes: Reconciled[] = [];
  if (!gateway.sentStatus) return outcomes;
  const sending: SendingWithdrawal[] = await operations.sendingWithdrawals(gateway.network);
  for (const withdrawal of sending) {
    const { broadcast } = withdrawal;
    if (!broadcast) {
      outcomes.push({
        withdrawalId: withdrawal.id,
        txHash: null,
        action: 'waiting',
        status: null,
        reason: 'no signed transaction recorded, nothing was broadcast: an operator may release it to review',
      });
      continue;
    }
    const status = await gateway.sentStatus({ txHash: broadcast.txHash, nonce: broadcast.nonce });
    let { action, reason } = decide(status, confirmations);
    // Another instance may have completed or released it meanwhile: then this round changed nothing (and
    // audited nothing: the note is written only with a decision taken).
    const note = (decided: 'completed' | 'released') =>
      reconcileNote(now(), { ...withdrawal, broadcast }, { action: decided, status, reason, confirmations });
    if (
      action === 'completed' &&
      !(await operations.completeWithdrawal(withdrawal.id, broadcast.txHash, note('completed')))
    ) {
      action = 'waiting';
      reason = 'already finished elsewhere';
    }
    if (action === 'released' && !(await operations.releaseWithdrawal(withdrawal.id, note('released')))) {
      action = 'waiting';
      reason = 'already finished elsewhere';
    }
    outcomes.push({ withdrawalId: withdrawal.id, txHash: broadcast.txHash, action, status, reason });
  }
  return outcomes;
}

/** The logger the rounds write to (the server's pino logger fits). */
export interface ReconcilerLog {
  info(entry: object, msg: string): void;
  warn(entry: object, msg: string): void;
  error(entry: object, msg: string): void;
}

export interface SendReconciler {
  /** One round now (tests; the timer calls it too). Resolves when done; never rejects. */
  round(): Promise<Reconciled[]>;
  close(): Promise<void>;
}

export function watchSends(options: {
  gateways: ChainGateway[];
  operations: Operations;
  mayRun: () => Promise<boolean>;
  everyMs: number;
  log: ReconcilerLog;
  confirmations?: number;
  /** The audit rows' time (ms); Date.now by default. */
  now?: () => number;
}): SendReconciler {
  const { gateways, operations, log } = options;
  const gatewaysWithStatus = gateways.filter((g) => g.sentStatus !== undefined);
  /** Withdrawals already reported waiting, with the reason: logged again only when it changes. */
  const waiting = new Map<string, string>();
  const run = async (): Promise<Reconciled[]> => {
    const all: Reconciled[] = [];
    if (!(await options.mayRun())) return all;
    const seen = new Set<string>();
    for (const gateway of gatewaysWithStatus) {
      try {
        const outcomes = await reconcileRound(gateway, operations, {
          confirmations: options.confirmations,
          now: options.now,
        });
        for (const o of outcomes) {
          seen.add(o.withdrawalId);
          const entry = {
            network: gateway.network,
            withdrawalId: o.withdrawalId,
            txHash: o.txHash,
            action: o.action,
            reason: o.reason,
          };
          if (o.action === 'waiting') {
            if (waiting.get(o.withdrawalId) !== o.reason) log.warn(entry, 'chain send uncertain');
            waiting.set(o.withdrawalId, o.reason);
          } else {
            waiting.delete(o.withdrawalId);
            log.info(entry, 'chain send reconciled');
          }
        }
        all.push(...outcomes);
      } catch (error) {
        log.error({ err: error, network: gateway.network }, 'chain send reconcile round failed');
      }
    }
    for (const id of [...waiting.keys()]) if (!seen.has(id)) waiting.delete(id);
    return all;
  };
  return periodicRounds(gatewaysWithStatus.length > 0 ? options.everyMs : 0, run, []);
}
