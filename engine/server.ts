/**
 * The engine's second public entry, for its Node hosts (server/: the API server, the back office, the
 * signer, the operator CLI). It holds what only they need and the browser must never bundle: secret
 * hashing, the simulated chains, TRON address encoding, the watch-only deposit key, the record shapes the
 * back office reads from SQL. server/ imports the engine through engine/index.ts and this file alone; src/
 * may not import it (both enforced by eslint.config.js; docs/ARCHITECTURE.md principle 2).
 */
export { defaultConfig, type EngineConfig } from './config';
export { isEngineError, type EngineError } from './errors';
export { formatAmount, parseAmount, parseAmountText } from './money';
export { compareIds, isStorageUnavailable } from './store/port';
export { syncable } from './sync/mutations';
export { CLIENT_IP_HEADER, PAGE_ORIGIN_HEADER } from './devices/client';
export { dummyHash, hashSecret, verifySecret } from './security/hashing';
export { SimulatedChain } from './chain/simulator';
export { TRON_PREFIX, tronAddress, tronBase58check } from './chain/encoding';
export { watchOnlyKey } from './chain/addresses';
export { effectiveVip, vipName } from './accounts/tables';
export type { FileRow } from './accounts/uploads';
export { StoredUpload } from './accounts/uploads';
export type { WithdrawalRow } from './withdrawals/tables';
// The live market (server/market-data): a market source's parts, the pairs, and the mark and funding formulas.
export { marketFor } from './market/instance';
export { simulatedSource, type MarketSource, type PairStatus } from './market/source';
export {
  SYMBOLS,
  findSymbol,
  formatPrice,
  formatVolume,
  VOLUME_DECIMALS,
  type SymbolSpec,
} from './market/symbols';
export {
  INTERVALS,
  INTERVAL_MINUTES,
  type Candle,
  type CurrEntry,
  type Depth,
  type Interval,
  type Quote,
} from './market/types';
export type { Book, BookLevel } from './market/depth';
export type { Range } from './market/extremes';
export { currOf, type MarketSubscription, type TimedMessage } from './market/feed';
export type { MarketModel } from './market/hourly';
export { percent } from './market/market';
export {
  basisAverage,
  FUNDING_INTERVAL_MS,
  fundingPrice,
  fundingRateFromPremium,
  MA_SAMPLES,
  median3,
  nextFunding,
  ratePercent,
} from './trading/mark';
export { mulDiv, PPM, SCALE, type Micro } from './money';
export type { HouseRisk, PairRisk } from './trading/house';
/** The ledger's rules L1-L6 over a whole store (the backup drill checks a restored copy with them). */
export { checkInvariants } from './ledger/invariants';
