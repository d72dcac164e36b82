/**
 * The engine's internal port for what happens outside a member's request: a chain gateway's deposit reports
 * and operators' decisions (withdrawals, payment-proof deposits, identity checks). Never reachable over
 * HTTP. Each call is one unit of work at the clock's time, all-or-nothing and idempotent; a decision's
 * optional `note` (CommitNote) is written in the decision's own commit (the server's audit row).
 * docs/OPERATIONS.md "The engine's operations port".
 */
import { certs } from './accounts/cert';
import { members } from './accounts/tables';
import { revokeAll } from './security/sessions';
import type { Network } from './chain/addresses';
import { ownerOfAddress } from './chain/domain';
import { depositAddresses } from './chain/tables';
import { requireAddress } from './chain/schema';
import type { Ctx } from './context';
import { creditDeposit } from './deposits/credit';
import { checkTxid } from './deposits/rules';
import { chainDeposits, deposits, type DepositRow } from './deposits/tables';
import { Codes, fail } from './errors';
import type { Micro } from './money';
import type { CommitNote } from './store/port';
import { houseRisk, setTradingHalt, type HouseRisk } from './trading/house';
import { captureWithdrawal, notifySent, reject } from './withdrawals/review';
import { withdrawals, type WithdrawalBroadcast, type WithdrawalRow } from './withdrawals/tables';

/** What the gateway needs to send an approved withdrawal. */
export interface WithdrawalToSend {
  id: string;
  network: Network;
  /** Destination, canonical form. */
  address: string;
  /** What the destination receives (amount - fee), micro-units. */
  amount: Micro;
}

/** A withdrawal being sent (claimed), with the transaction it was about to broadcast when one was recorded. */
export interface SendingWithdrawal extends WithdrawalToSend {
  /** When it was claimed (ms). */
  since: number;
  /** The signed transaction recorded before its broadcast; null when none was (it never reached the signer). */
  broadcast: WithdrawalBroadcast | null;
}

/** One ERC-20/TRC-20 transfer to a member address, as a chain gateway sees it now. */
export interface ChainDepositObservation {
  network: Network;
  /** Transaction hash and the transfer's log index in it: the deposit's identity on its chain. */
  txHash: string;
  logIndex: number;
  /** The receiving (member) address. */
  address: string;
  amount: Micro;
  blockNumber: number;
  confirmations: number;
  /**
   * pending: included, not yet final; confirmed: reached the configured confirmations; dropped: its block was
   * reorganised away (or it failed) before confirmation.
   */
  status: 'pending' | 'confirmed' | 'dropped';
}

export type ChainDepositOutcome =
  /** Nobody was given this address: none of the platform's business (D4). */
  { result: 'ignored' } | { result: 'pending' | 'credited' | 'dropped'; depositId: string };

export interface EngineOperations {
  /** A gateway's report: records a pending deposit once, credits it once at confirmation, drops it on reorg. */
  recordChainDeposit(observation: ChainDepositObservation): Promise<ChainDepositOutcome>;
  /** Every deposit address handed out on `network`: what a chain gateway watches. */
  depositAddresses(network: Network): Promise<string[]>;
  /**
   * A reviewer approves: the pending withdrawal is marked as being sent (once: a second claim answers null)
   * and what to send is answered. Then the gateway broadcasts and completeWithdrawal records the hash; if the
   * broadcast surely failed, releaseWithdrawal makes it pending (claimable or rejectable) again (the hold
   * stays frozen). `note`: the reconciler's audit row (server/chain/reconciler.ts).
   */
  claimWithdrawal(withdrawalId: string): Promise<WithdrawalToSend | null>;
  releaseWithdrawal(withdrawalId: string, note?: CommitNote): Promise<boolean>;
  /**
   * Reviewer: releases a withdrawal stuck being sent with no broadcast recorded (the process stopped between
   * the claim and the signature) back to review; the hold stays frozen. Refused (denied) when a signed
   * transaction is recorded: it may be on chain, and only the reconciler decides. False if it is not being
   * sent. A send still in flight then finds its claim gone when it records its transaction and broadcasts
   * nothing (gateway.ts `onSigned`).
   */
  releaseUnsentWithdrawal(withdrawalId: string, note?: CommitNote): Promise<boolean>;
  /**
   * The gateway, after signing and before broadcasting: records the signed transaction's hash (and EVM nonce)
   * on the withdrawal being sent, so an unanswered broadcast can be checked on chain later. False if it is not
   * being sent.
   */
  recordBroadcast(withdrawalId: string, sent: { txHash: string; nonce?: number | null }): Promise<boolean>;
  /** The withdrawals being sent on `network` (claimed, not completed nor released), oldest first. */
  sendingWithdrawals(network: Network): Promise<SendingWithdrawal[]>;
  /** Finance: credits a pending manual (payment-proof / hash) deposit. False if it is not pending. */
  creditDeposit(depositId: string, note?: CommitNote): Promise<boolean>;
  /**
   * Reviewer: rejects a pending manual deposit; nothing is credited. `reason` (optional) is kept on the record
   * and sent on the feed. False if it is not pending.
   */
  rejectDeposit(depositId: string, reason?: string, note?: CommitNote): Promise<boolean>;
  /**
   * A withdrawal approved by a reviewer and broadcast by the gateway: the hold is captured and the record
   * gets the real transaction hash. False if it is not pending (so a second report changes nothing).
   */
  completeWithdrawal(withdrawalId: string, txHash: string, note?: CommitNote): Promise<boolean>;
  /** Reviewer: rejects a pending withdrawal with the reason the member sees; funds unfrozen once. */
  rejectWithdrawal(withdrawalId: string, reason: string, note?: CommitNote): Promise<boolean>;
  /** Reviewer: passes or rejects an identity check under review; `reason` is kept and sent on the feed. */
  decideCert(certId: string, passed: boolean, reason?: string, note?: CommitNote): Promise<boolean>;
  /**
   * An operator locks (or unlocks) a member: a locked member (status `disabled`) cannot log in, and every live
   * session is revoked at once, so nothing more can be moved. False if there is no such member.
   */
  setMemberLocked(memberId: string, locked: boolean, note?: CommitNote): Promise<boolean>;
  /**
   * The kill switch: an operator stops (or resumes) new orders in a pair (4037 while stopped; members may
   * still close contract positions). False when the pair was already so; 400 for an unknown pair.
   */
  setTradingHalt(symbol: string, halted: boolean, reason?: string, note?: CommitNote): Promise<boolean>;
  /** The house's net position per pair, its exposure at the index and its PnL (engine/trading/house.ts). */
  houseRisk(): Promise<HouseRisk>;
}

const key = (o: ChainDepositObservation, txHash: string) => `${o.network}:${txHash}:${o.logIndex}`;

async function recordChainDeposit(ctx: Ctx, o: ChainDepositObservation): Promise<ChainDepositOutcome> {
  const check = checkTxid(o.network, o.txHash);
  if (!check.ok) throw fail(400, check.message);
  if (!Number.isInteger(o.logIndex) || o.logIndex < 0) throw fail(400, 'Invalid log index');
  if (o.amount <= 0n) throw fail(400, 'Invalid request: amount must be greater than zero');
  const address = requireAddress(o.network, o.address);
  const id = key(o, check.txid);
  const required = ctx.config.networks[o.network].confirmations;
  const seen = await ctx.tx.get(chainDeposits, id);
  // A transfer dropped by a reorg and then included again is a new sighting: a new pending deposit. Only
  // one record per transfer is ever pending or credited, so it is still credited at most once.
  const reopened = seen?.status === 'dropped' && o.status !== 'dropped';
  let row: DepositRow | undefined =
    seen && !reopened ? await ctx.tx.get(deposits, seen.depositId) : undefined;
  if (!row) {
    const owner = await ownerOfAddress(ctx, o.network, address);
    if (owner === undefined) return { result: 'ignored' };
    if (o.status === 'dropped') return { result: 'ignored' };
    row = {
      id: await ctx.ids.next('deposit'),
      memberId: owner,
      currency: 'USDT',
      network: o.network,
      address,
      amount: o.amount.toString(),
      source: 'chain',
      status: 'pending',
      txid: check.txid,
      proof: null,
      includedHeight: o.blockNumber,
      required,
      confirmations: o.confirmations,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    };
    ctx.tx.put(deposits, row);
    ctx.emit({ type: 'deposit', data: { memberId: owner, id: row.id, status: 'pending' } });
  }
  const depositId = row.id;
  if (row.status === 'success') return { result: 'credited', depositId };
  if (row.status === 'rejected') return { result: 'dropped', depositId };
  if (o.status === 'dropped') {
    ctx.tx.put(deposits, { ...row, status: 'rejected', updatedAt: ctx.now });
    ctx.tx.put(chainDeposits, { id, depositId, status: 'dropped', updatedAt: ctx.now });
    ctx.emit({ type: 'deposit', data: { memberId: row.memberId, id: depositId, status: 'rejected' } });
    return { result: 'dropped', depositId };
  }
  // The engine checks the count itself: a gateway cannot credit below the configured confirmations.
  if (o.status === 'confirmed' && o.confirmations >= required) {
    ctx.tx.put(deposits, { ...row, confirmations: o.confirmations, includedHeight: o.blockNumber });
    await creditDeposit(ctx, depositId);
    ctx.tx.put(chainDeposits, { id, depositId, status: 'confirmed', updatedAt: ctx.now });
    return { result: 'credited', depositId };
  }
  ctx.tx.put(deposits, {
    ...row,
    confirmations: o.confirmations,
    includedHeight: o.blockNumber,
    updatedAt: ctx.now,
  });
  ctx.tx.put(chainDeposits, { id, depositId, status: 'pending', updatedAt: ctx.now });
  return { result: 'pending', depositId };
}

/** An operator's reason as kept on a record: trimmed, at most 500 characters, null when empty. */
function reasonText(reason: string | undefined): string | null {
  const text = reason?.trim() ?? '';
  return text === '' ? null : text.slice(0, 500);
}

async function decideDeposit(
  ctx: Ctx,
  depositId: string,
  credit: boolean,
  reason?: string,
): Promise<boolean> {
  const row = await ctx.tx.get(deposits, depositId);
  if (!row || row.status !== 'pending') return false;
  if (row.source !== 'manual') throw fail(Codes.denied, 'Chain deposits are decided by their confirmations');
  if (credit) return creditDeposit(ctx, depositId);
  const text = reasonText(reason);
  ctx.tx.put(deposits, { ...row, status: 'rejected', reason: text, updatedAt: ctx.now });
  ctx.emit({
    type: 'deposit',
    data: { memberId: row.memberId, id: row.id, status: 'rejected', ...(text ? { reason: text } : {}) },
  });
  return true;
}

async function claimWithdrawal(ctx: Ctx, withdrawalId: string): Promise<WithdrawalToSend | null> {
  const row = await ctx.tx.get(withdrawals, withdrawalId);
  if (!row || row.status !== 'pending' || sending(row)) return null;
  ctx.tx.put(withdrawals, { ...row, sendingSince: ctx.now });
  return { id: row.id, network: row.network, address: row.address, amount: BigInt(row.received) };
}

async function releaseWithdrawal(ctx: Ctx, withdrawalId: string): Promise<boolean> {
  const row = await ctx.tx.get(withdrawals, withdrawalId);
  if (!row || row.status !== 'pending' || !sending(row)) return false;
  ctx.tx.put(withdrawals, { ...row, sendingSince: null, broadcast: null });
  return true;
}

async function releaseUnsentWithdrawal(ctx: Ctx, withdrawalId: string): Promise<boolean> {
  const row = await ctx.tx.get(withdrawals, withdrawalId);
  if (!row || row.status !== 'pending' || !sending(row)) return false;
  if (row.broadcast)
    throw fail(
      Codes.denied,
      `A signed transaction is recorded for this withdrawal (${row.broadcast.txHash}): it may be on chain, so only the reconciler can release it`,
    );
  ctx.tx.put(withdrawals, { ...row, sendingSince: null, broadcast: null });
  return true;
}

async function recordBroadcast(
  ctx: Ctx,
  withdrawalId: string,
  sent: { txHash: string; nonce?: number | null },
): Promise<boolean> {
  const row = await ctx.tx.get(withdrawals, withdrawalId);
  if (!row || row.status !== 'pending' || !sending(row)) return false;
  const check = checkTxid(row.network, sent.txHash);
  if (!check.ok) throw fail(400, check.message);
  const nonce = sent.nonce ?? null;
  if (nonce !== null && (!Number.isSafeInteger(nonce) || nonce < 0)) throw fail(400, 'Invalid nonce');
  ctx.tx.put(withdrawals, { ...row, broadcast: { txHash: check.txid, nonce, at: ctx.now } });
  return true;
}

async function sendingWithdrawals(ctx: Ctx, network: Network): Promise<SendingWithdrawal[]> {
  const rows = await ctx.tx.query(withdrawals, 'sending', network);
  return rows
    .filter((row) => row.status === 'pending' && sending(row) && row.network === network)
    .map((row) => ({
      id: row.id,
      network: row.network,
      address: row.address,
      amount: BigInt(row.received),
      since: row.sendingSince ?? 0,
      broadcast: row.broadcast ?? null,
    }))
    .sort((a, b) => a.since - b.since || (a.id < b.id ? -1 : 1));
}

const sending = (row: WithdrawalRow) => row.sendingSince !== undefined && row.sendingSince !== null;

async function completeWithdrawal(ctx: Ctx, withdrawalId: string, txHash: string): Promise<boolean> {
  const row = await ctx.tx.get(withdrawals, withdrawalId);
  if (!row || row.status !== 'pending') return false;
  const check = checkTxid(row.network, txHash);
  if (!check.ok) throw fail(400, check.message);
  await captureWithdrawal(ctx, row);
  const sent: WithdrawalRow = {
    ...row,
    status: 'success',
    txid: check.txid,
    finishedAt: ctx.now,
    sendingSince: null,
    broadcast: null,
  };
  ctx.tx.put(withdrawals, sent);
  ctx.emit({ type: 'withdrawal', data: { memberId: row.memberId, id: row.id, status: 'success' } });
  await notifySent(ctx, sent);
  return true;
}

async function rejectWithdrawal(ctx: Ctx, withdrawalId: string, reason: string): Promise<boolean> {
  const row = await ctx.tx.get(withdrawals, withdrawalId);
  if (!row || row.status !== 'pending') return false;
  if (sending(row)) throw fail(Codes.denied, 'This withdrawal is being sent: it can no longer be rejected');
  const text = reason.trim();
  if (text === '') throw fail(400, 'A rejection needs a reason the member can read');
  const kept = text.slice(0, 500);
  ctx.tx.put(withdrawals, await reject(ctx, row, kept));
  // The reason travels with the event, so the member's screen can show it at once.
  ctx.emit({
    type: 'withdrawal',
    data: { memberId: row.memberId, id: row.id, status: 'rejected', reason: kept },
  });
  return true;
}

async function decideCert(ctx: Ctx, certId: string, passed: boolean, reason?: string): Promise<boolean> {
  const row = await ctx.tx.get(certs, certId);
  if (!row || row.status !== 'under review') return false;
  const status = passed ? 'passed' : 'rejected';
  const text = reasonText(reason);
  ctx.tx.put(certs, { ...row, status, reviewedAt: ctx.now, reason: text });
  const member = await ctx.tx.get(members, row.memberId);
  if (member) ctx.tx.put(members, { ...member, realNameStatus: status });
  ctx.emit({ type: 'cert', data: { memberId: row.memberId, status, ...(text ? { reason: text } : {}) } });
  return true;
}

async function setMemberLocked(ctx: Ctx, memberId: string, locked: boolean): Promise<boolean> {
  const row = await ctx.tx.get(members, memberId);
  if (!row) return false;
  const status = locked ? 'disabled' : 'active';
  if (row.status !== status) ctx.tx.put(members, { ...row, status });
  if (locked) await revokeAll(ctx.tx, memberId, ctx.now);
  return true;
}

/** A decision that attaches `note` to its unit's commit when it is taken (answers true). */
function noted(
  note: CommitNote | undefined,
  decide: (ctx: Ctx) => Promise<boolean>,
): (ctx: Ctx) => Promise<boolean> {
  return async (ctx) => {
    const taken = await decide(ctx);
    if (taken && note) ctx.tx.note(note);
    return taken;
  };
}

/** Binds the operations to a runtime's serial units of work (engine/engine.ts). */
export function createOperations(operate: <T>(fn: (ctx: Ctx) => Promise<T>) => Promise<T>): EngineOperations {
  return {
    recordChainDeposit: (o) => operate((ctx) => recordChainDeposit(ctx, o)),
    depositAddresses: (network) =>
      operate(async (ctx) =>
        (await ctx.tx.scan(depositAddresses)).filter((r) => r.network === network).map((r) => r.address),
      ),
    claimWithdrawal: (id) => operate((ctx) => claimWithdrawal(ctx, id)),
    releaseWithdrawal: (id, note) => operate(noted(note, (ctx) => releaseWithdrawal(ctx, id))),
    releaseUnsentWithdrawal: (id, note) => operate(noted(note, (ctx) => releaseUnsentWithdrawal(ctx, id))),
    recordBroadcast: (id, sent) => operate((ctx) => recordBroadcast(ctx, id, sent)),
    sendingWithdrawals: (network) => operate((ctx) => sendingWithdrawals(ctx, network)),
    creditDeposit: (id, note) => operate(noted(note, (ctx) => decideDeposit(ctx, id, true))),
    rejectDeposit: (id, reason, note) => operate(noted(note, (ctx) => decideDeposit(ctx, id, false, reason))),
    completeWithdrawal: (id, hash, note) => operate(noted(note, (ctx) => completeWithdrawal(ctx, id, hash))),
    rejectWithdrawal: (id, reason, note) => operate(noted(note, (ctx) => rejectWithdrawal(ctx, id, reason))),
    decideCert: (id, passed, reason, note) =>
      operate(noted(note, (ctx) => decideCert(ctx, id, passed, reason))),
    setMemberLocked: (id, locked, note) => operate(noted(note, (ctx) => setMemberLocked(ctx, id, locked))),
    setTradingHalt: (symbol, halted, reason, note) =>
      operate(noted(note, (ctx) => setTradingHalt(ctx, symbol, halted, reason))),
    houseRisk: () => operate((ctx) => houseRisk(ctx)),
  };
}
