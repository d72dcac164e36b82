/**
 * The engine's only public entry (API.md "Engine entry point"). src/ imports the engine through this file
 * alone; tests drive it through `handle` exactly as the app and the server do.
 */
import type { BodyOf, ContractPath, DataOf, EngineRequest, EngineResponse } from './contract';
import type { PaymentProvider } from './counterparties';
import type { MarketSource } from './market/source';
import type { EngineFeedMessage } from './feed';
import type { EngineOperations } from './operations';
import type { Clock } from './runtime';
import type { Hasher } from './security/hashing';
import type { RouteDescription } from './router';
import type { StoreAdapter } from './store/port';

export type * from './contract';
export { isAccountMessage } from './feed';
export type { AccountFeedMessage, EngineFeedMessage, FeedData, FeedMessage, SocketFeedMessage } from './feed';
export type { Clock } from './runtime';
export type { Hasher } from './security/hashing';
export type { RouteDescription } from './router';
export type { PaymentProvider, PaymentCharge, PaymentResult } from './counterparties';
export type { MarketSource, PairStatus } from './market/source';
export type { HouseRisk, PairRisk } from './trading/house';
export type {
  EngineOperations,
  ChainDepositObservation,
  ChainDepositOutcome,
  SendingWithdrawal,
} from './operations';
export type { CommitNote, StoreAdapter, StoredRow, RowRef } from './store/port';
export { StorageUnavailableError } from './store/port';
/**
 * Pure address rules, shared with the app so a withdrawal address is checked (checksum included) as it is
 * typed. The engine itself is reached through dynamic imports in `createEngine`, so importing these does not
 * pull the engine into the app's main-thread bundle.
 */
export { validateAddress, detectNetwork, type AddressCheck } from './chain/validate';
/** The member's own mutating calls: the app pulls its replica after one of them succeeds. */
export { SYNCABLE_PATHS } from './sync/paths';
export { memberFigures, type BalanceFigure, type MemberFigures } from './accounts/figures';
export { SUB_ACCOUNTS, MOVABLE_ACCOUNTS, type SubAccount } from './ledger/accounts';
/** The synced `ledgerLines` rows the account statement is made of (type only: no engine code in the app). */
export type { LedgerLine, LedgerLinesView } from './ledger/lines';
/**
 * Proof of reserves, pure: the member's device checks its own inclusion proof (the leaf's hash, the path up to
 * the root and the sums) and the snapshot's Ed25519 signature with the engine's own code, offline too.
 */
export {
  RESERVE_ACCOUNTS,
  leafText,
  snapshotMessage,
  verifyInclusion,
  type InclusionVerdict,
} from './reserves/merkle';
export { verifyText } from './reserves/signature';
export {
  DEMO_PINNED_KEYS,
  DEMO_RESERVES_PUBLIC_KEY,
  keyTrust,
  parsePinnedKeys,
  pinnedKeyAt,
  type KeyTrust,
  type PinnedKey,
  type RememberedKey,
} from './reserves/keys';
export type { Network } from './chain/encoding';
/**
 * The one money module (engine/money.ts), pure and small like the address rules: the app parses what a
 * member types, compares and formats amounts with the engine's own code, never a copy.
 */
export {
  SCALE,
  DECIMALS,
  MAX_INTEGER_DIGITS,
  tryParseAmount,
  parseAmount,
  parseAmountText,
  formatAmount as formatMicro,
  formatDecimal,
  exactDecimal,
  roundDecimal,
  compareDecimal,
  signOf,
  KNOWN_SEPARATORS,
  separatorsFor,
  mulDiv,
  mulMicro,
  type Micro,
  type DisplayOptions,
  type DisplayRounding,
} from './money';
/** Each pair's display scale: prices at its tick, quantities at its step (the amount component's rule). */
export { pairScale, type PairScale } from './market/symbols';
/** Pure order preview (fill price, slippage, fee, margin, liquidation price) for the trade screen. */
export {
  crossLiquidationAfter,
  previewOrder,
  type OrderPreview,
  type PreviewAccount,
  type PreviewInput,
} from './trading/preview';
/**
 * Pure read-side views shared with the device, which computes them from its replica (docs/OFFLINE.md "The
 * read path"): open positions valued at the mark (what /api/position/list answers), the sub-accounts
 * (/api/account/assets) and the invitation summary (/api/user/invite).
 */
export {
  liveCross,
  livePositions,
  positionAtMark,
  type PositionRecord,
  type LivePosition,
} from './trading/views';
export { unrealisedTotalAt, type CrossView, type MarkOf } from './trading/position-figures';
export { assetsView, type PriceOf } from './assets/view';
export { inviteSummary, type InviteeRecord, type ReferralShare } from './referral/view';

export interface ManualClock extends Clock {
  advance(ms: number): void;
}

export interface EngineOptions {
  clock?: Clock;
  seed?: number;
  /**
   * "memory", the name of a Dexie (IndexedDB) database (the default is IndexedDB 'strata-engine'), or an
   * opened adapter of engine/store/port.ts (the server's SQL store).
   */
  storage?: 'memory' | string | StoreAdapter;
  /** Partial overrides of the business constants (engine/config.ts); amounts as decimal strings. */
  config?: Record<string, unknown>;
  /**
   * IndexedDB storage only: a newer version of the app is upgrading the database, so this engine has closed
   * it and refuses further work. Its owner should reload into the new version.
   */
  onStorageReplaced?: () => void;
  /**
   * Live mode only: the payment provider adapter behind quick buy (engine/counterparties.ts). Without one,
   * a live engine refuses quick buy (403). Demo mode always uses the simulated provider.
   */
  payments?: PaymentProvider;
  /**
   * Live mode only: where prices come from (engine/market/source.ts), e.g. the server's market-data gateway.
   * Without one a live engine has no market (no quotes, orders answer 403). Demo mode always simulates.
   */
  market?: MarketSource;
  /**
   * Random bytes for key material that must not follow the seed (the demo deposit key: docs/SERVER.md
   * "Key custody"); crypto.getRandomValues by default. Tests inject a fixed source for reproducible hashes.
   */
  entropy?: (bytes: number) => Uint8Array;
  /**
   * Password/key hashing (PBKDF2-SHA256): WebCrypto unless the owner injects another, e.g. the server's
   * worker-thread pool (server/hash-pool.ts). Hashes never run inside a call's unit of work.
   */
  hasher?: Hasher;
}

/** Read-only checks for tests, benches and support tooling; never part of the wire contract. */
export interface EngineDiagnostics {
  /** Broken ledger rules (docs/RULES.md L1-L6), empty when all hold. */
  checkInvariants(): Promise<string[]>;
  /** Every balance recomputed from the journal: "account|asset" -> micro-units. */
  rebuildBalances(): Promise<Map<string, bigint>>;
  /** SHA-256 of every stored record in canonical form: same seed and calls -> same hash. */
  stateHash(): Promise<string>;
  /** Every stored record by table (for tests and support tooling; contains secret hashes). */
  snapshot(): Promise<Record<string, unknown[]>>;
  /** Every answerable path. */
  paths(): string[];
  /** Every call with its method and its body's JSON Schema, generated from the handler's zod schema. */
  routes(): RouteDescription[];
}

export interface Engine {
  handle(request: EngineRequest): Promise<EngineResponse>;
  settle(): Promise<void>;
  subscribe(listener: (message: EngineFeedMessage) => void): () => void;
  diagnostics: EngineDiagnostics;
  /** Internal calls for the chain gateway and operators (engine/operations.ts); never over HTTP. */
  operations: EngineOperations;
  /** Closes the storage (Dexie) after queued work finished. */
  close(): Promise<void>;
}

/**
 * A call a host makes to the engine on its own behalf (the server checking a socket's credentials, replaying
 * an Idempotency-Key call as a push), its answer typed by the contract: each path's router answers its
 * handler's `DataOf` on code 0 (the contract test checks every handler against ContractMap), and `null` or
 * another shape only with another code, so callers look at `code` before `data`.
 */
export async function callEngine<P extends ContractPath>(
  engine: Pick<Engine, 'handle'>,
  path: P,
  headers: Record<string, string | undefined>,
  body?: BodyOf<P>,
): Promise<EngineResponse<DataOf<P> | null>> {
  return (await engine.handle({ method: 'POST', path, headers, body })) as EngineResponse<DataOf<P> | null>;
}

export function manualClock(startMs: number): ManualClock {
  let now = startMs;
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

export async function createEngine(options: EngineOptions = {}): Promise<Engine> {
  const [{ assembleEngine }, { domains }] = await Promise.all([import('./engine'), import('./routes')]);
  return assembleEngine(options, domains);
}
