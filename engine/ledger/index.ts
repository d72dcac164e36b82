export { Ledger, LedgerError, type MoveOptions, type PostingLeg } from './ledger';
export { acct, ownerOf, SUB_ACCOUNTS, USDT, type SubAccount } from './accounts';
export {
  balances,
  holds,
  journal,
  balanceId,
  type BalanceRow,
  type HoldRow,
  type JournalEntry,
  type Leg,
} from './tables';
export { checkInvariants, rebuildBalances } from './invariants';
