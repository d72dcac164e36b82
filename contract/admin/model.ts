/**
 * The operator API's records (issue 12): what the back-office console (src/admin) shows and the server's
 * operator routes (server/admin) answer. No runtime dependencies, so the console may import values from it
 * (ROLE_GRANTS, the status lists); the route table is routes.ts. docs/OPERATIONS.md "Operator API"
 * describes each route in words.
 *
 * Envelope and conventions as the member API (docs/API.md "Envelope"): every answer is HTTP 200 with
 * `{ code, msg, data }`, code 0 is success; amounts are exact decimal strings; times are Unix seconds; lists
 * take `page` (1-based) and `limit` (default 20, max 100) and answer newest first.
 *
 * Authentication: `Authorization: Bearer <operator token>` from POST /api/admin/login. Operator sessions are
 * their own table: a member's token is never an operator's (401), and an operator token is never a member's.
 * GET routes take their parameters as a query string; POST routes as a JSON body.
 *
 * Codes: 401 no or expired operator session; 403 the operator's role may not do this (or the operator is
 * disabled); 423 the operator is locked out after repeated failed logins (`msg` says until when); 400
 * invalid input (a clear `msg`, nothing changed); 404 no such record; 409 the record is no longer in a state
 * that allows this (already decided, being sent) or a maker-checker rule (the same operator cannot give
 * both approvals); 503 a dependency (chain gateway, signer, database) is not available, nothing changed.
 */
import type { PairRisk } from '../../engine/index';

export type OperatorRole = 'reviewer' | 'finance' | 'admin';
export const ROLES = ['reviewer', 'finance', 'admin'] as const satisfies readonly OperatorRole[];
/** An operator's username: 3-32 letters, digits, ".", "_" or "-". */
export const OPERATOR_USERNAME = /^[A-Za-z0-9_.-]{3,32}$/;

/** Who an audit row names: an operator's role, or `system` for the server's own decisions (the reconciler). */
export type AuditRole = OperatorRole | 'system';

/** Which role may call which group of routes (admin may call everything). */
export const ROLE_GRANTS = {
  /** Withdrawals, identity checks, payment-proof deposits (reject). */
  review: ['reviewer', 'admin'],
  /** Deposit credits with a reason, balance adjustments. */
  finance: ['finance', 'admin'],
  /** Members list and detail, the solvency view, the manual deposits queue: every operator. */
  read: ['reviewer', 'finance', 'admin'],
  /** Lock and unlock members, operators and roles, site settings, the audit log. */
  admin: ['admin'],
} as const satisfies Record<string, readonly OperatorRole[]>;

export interface Operator {
  id: string;
  username: string;
  role: OperatorRole;
  disabled: boolean;
  createdAt: number;
  lastLoginAt: number | null;
}

export interface AdminListParams {
  page?: number;
  limit?: number;
}

export interface AdminList<T> {
  list: T[];
  total: number;
  page: number;
  limit: number;
  /** Records per status over the whole queue (not only this page), for the queue's tabs. */
  counts: Record<string, number>;
}

export interface Approval {
  operatorId: string;
  username: string;
  at: number;
}

export type AdminWithdrawalStatus = 'pending' | 'sending' | 'success' | 'rejected';
export const WITHDRAWAL_STATUSES = [
  'pending',
  'sending',
  'success',
  'rejected',
] as const satisfies readonly AdminWithdrawalStatus[];

export interface AdminWithdrawal {
  id: string;
  memberId: string;
  username: string;
  network: 'TRC20' | 'ERC20';
  address: string;
  amount: string;
  fee: string;
  /** What the destination receives (amount - fee). */
  received: string;
  status: AdminWithdrawalStatus;
  createdAt: number;
  finishedAt: number | null;
  /** The real transaction hash once sent. */
  txHash: string | null;
  /** While `sending`: when it was claimed (seconds); null otherwise. */
  sendingSince: number | null;
  /**
   * While `sending`: the signed transaction recorded before its broadcast (it may be on chain: only the
   * reconciler decides); null when none was recorded (the process stopped before the signature: an
   * operator may release it to review, POST /api/admin/withdrawals/release).
   */
  broadcast: { txHash: string; nonce: number | null; at: number } | null;
  /** The reason the member sees, on rejection. */
  reason: string | null;
  /** Maker-checker: 2 when the amount is above the configured threshold, else 1. */
  approvalsNeeded: 1 | 2;
  approvals: Approval[];
}

export type AdminDepositStatus = 'pending' | 'success' | 'rejected';
export const DEPOSIT_STATUSES = [
  'pending',
  'success',
  'rejected',
] as const satisfies readonly AdminDepositStatus[];

/** A manual deposit (payment proof or a transaction hash the member reported). */
export interface AdminDeposit {
  id: string;
  memberId: string;
  username: string;
  network: string;
  amount: string;
  txid: string | null;
  /** URL of the uploaded proof image, served to operators only. */
  proofUrl: string | null;
  status: AdminDepositStatus;
  createdAt: number;
  reason: string | null;
  /**
   * Maker-checker (as withdrawals): 2 when the amount is above the configured threshold, else 1. The first
   * of two credits only records itself; the second, by another operator, credits the member.
   */
  approvalsNeeded: 1 | 2;
  approvals: Approval[];
}

export type AdminCertStatus = 'review' | 'passed' | 'rejected';
export const CERT_STATUSES = ['review', 'passed', 'rejected'] as const satisfies readonly AdminCertStatus[];

export interface AdminCert {
  id: string;
  memberId: string;
  username: string;
  name: string;
  idNumber: string;
  frontUrl: string | null;
  backUrl: string | null;
  status: AdminCertStatus;
  submittedAt: number;
  reason: string | null;
}

export interface AdminMember {
  id: string;
  username: string;
  email: string | null;
  phone: string | null;
  vip: string;
  createdAt: number;
  locked: boolean;
  /** Cash available + frozen. */
  balance: string;
  totalAssets: string;
}

export interface AdminMemberDetail {
  member: AdminMember;
  balances: Array<{ account: string; asset: string; amount: string }>;
  holds: Array<{ id: string; account: string; amount: string; kind: string; ref: string; createdAt: number }>;
  /** The member's ledger entries, newest first (at most 100). */
  ledger: Array<{
    id: string;
    kind: string;
    ref: string;
    at: number;
    legs: Array<{ account: string; amount: string }>;
  }>;
}

export interface AuditEntry {
  id: string;
  at: number;
  /** null for the system actor (username `system`, role `system`). */
  operatorId: string | null;
  username: string;
  role: AuditRole;
  /**
   * e.g. withdrawal.approve, withdrawal.reject, withdrawal.release, deposit.credit, cert.decide, member.lock,
   * operator.create; the system's withdrawal.reconcile_complete and withdrawal.reconcile_release.
   */
  action: string;
  /** e.g. withdrawal:123, member:45, operator:7. */
  target: string;
  before: unknown;
  after: unknown;
  reason: string | null;
  ip: string;
}

export interface Solvency {
  /** What the platform owes members: every member account's USDT, frozen included. */
  liabilities: string;
  byAccount: Record<string, string>;
  /** The platform's wallets as the chain gateways last reported them. */
  holdings: Array<{ network: string; address: string; amount: string; at: number | null }>;
  holdingsTotal: string;
  /** holdingsTotal - liabilities (negative when short). */
  surplus: string;
  /** holdingsTotal / liabilities as a decimal string with 4 places, null when liabilities are 0. */
  ratio: string | null;
  /**
   * The latest proof-of-reserves snapshot (docs/OPERATIONS.md "Proof of reserves") against the same holdings:
   * its published total, time (Unix seconds), leaf count and root; null before the first.
   */
  snapshot: {
    id: string;
    time: number;
    total: string;
    leafCount: number;
    root: string;
    demo: boolean;
    /** holdingsTotal - total (negative when short). */
    surplus: string;
    /** holdingsTotal / total with 4 places, null when the total is 0. */
    ratio: string | null;
  } | null;
}

export interface AdminSettings {
  /** Withdrawals strictly above this amount need two different operators' approvals. */
  makerCheckerThreshold: string;
}

/** One venue of a pair's index as the gateway last saw it (live mode with MARKET_VENUES). */
export interface AdminMarketVenue {
  venue: string;
  /** The venue's last price, null before its first. */
  price: string | null;
  /** When it last sent anything for the pair (Unix seconds), null: never. */
  time: number | null;
  /** In the index now, left out (no update for MARKET_STALE_SECONDS; too far from the median), or not listing the pair. */
  state: 'used' | 'stale' | 'outlier' | 'unlisted';
}

/** The house's risk in one pair (engine/trading/house.ts: position, stale index, kill switch) and its venues. */
export interface AdminMarketPair extends PairRisk {
  /** Each configured venue's state for the pair; empty in demo mode (the simulator). */
  venues: AdminMarketVenue[];
}

export interface AdminMarket {
  /** Where prices come from: the simulator (demo), real venues (MARKET_VENUES), or none (no trading). */
  mode: 'simulated' | 'venues' | 'none';
  pairs: AdminMarketPair[];
  /** house:market's USDT balance. */
  cash: string;
  /** The house's mark-to-market PnL since the start (cash + coins at the index + contract PnL); null when a held pair has no price. */
  pnl: string | null;
  /** Unix seconds of the figures. */
  time: number;
}
