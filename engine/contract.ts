/**
 * The wire contract of docs/API.md as types: one entry per path, its request body and its success data.
 * The engine's router and the app's API client are both typed from this map, so a renamed field fails the
 * type check on both sides (ARCHITECTURE.md principle 1). Amounts are decimal strings; times are Unix seconds.
 */

import type { Candle, Depth, Interval, Quote } from './market/types';
import type { FinanceOrderView, ProductView, ProfitView } from './finance/views';
export type * from './market/types';
export type { FinanceOrderView, ProductView, ProfitView } from './finance/views';
import type { AssetsView } from './assets/handlers';
export type { AssetsView, AssetLine, SubAccountView } from './assets/handlers';
import type { FundingView, OrderView, PositionTriggersView, PositionView } from './trading/views';
export type { FundingView, OrderView, PositionTriggersView, PositionView } from './trading/views';
import type { CrossView } from './trading/position-figures';
export type { CrossView } from './trading/position-figures';
import type { MachineView, PledgeView } from './mining/handlers';
import type { InviteView } from './referral/handlers';
import type { BankCardView } from './bank/handlers';
import type { BuycoinQuote } from './buycoin/handlers';
import type { HelpArticleView } from './help/handlers';
export type { MachineView, PledgeView } from './mining/handlers';
export type { InviteView } from './referral/handlers';
export type { BankCardView } from './bank/handlers';
export type {
  AddressBook,
  AddressKind,
  DestinationCheck,
  RecipientPreview,
  SavedAddressView,
} from './addressbook/wire';
export type { BuycoinQuote } from './buycoin/handlers';
export type { HelpArticleView } from './help/handlers';
import type { ChainSendResult, DepositAddress, DepositRecord, WireNetwork } from './deposits/types';
export type { ChainSendResult, DepositAddress, DepositRecord, WireNetwork } from './deposits/types';
import type { WithdrawFeeQuote, WithdrawalRecord } from './withdrawals/types';
export type { WithdrawFeeQuote, WithdrawalRecord } from './withdrawals/types';

import type { CoreContract } from './wire';
export type * from './wire';
import type { SecondFactorFields, SecurityContract } from './twofactor/wire';
import type { AddressBookContract } from './addressbook/wire';
import type { AlertsContract } from './alerts/wire';
export type * from './alerts/wire';
import type { FavouritesContract } from './favourites/wire';
export type * from './favourites/wire';
import type { NoticesContract } from './notices/wire';
export type * from './notices/wire';
import type { ReservesContract } from './reserves/wire';
export type { ReserveLeaf, ReservePathStep, ReserveProof, ReserveSnapshot } from './reserves/wire';
export type * from './twofactor/wire';

export type Method = 'GET' | 'POST';

/** The envelope every answer carries (API.md "Envelope"). */
export interface Envelope<T = unknown> {
  code: number;
  msg: string;
  data: T;
}

export interface EngineRequest {
  method: Method | string;
  path: string;
  headers?: Record<string, string | undefined>;
  /** A parsed JSON value, a raw JSON string, or a FormData-like multipart body for uploads. */
  body?: unknown;
}

export interface EngineResponse<T = unknown> {
  status: number;
  body: Envelope<T>;
}

/** Amount strings: up to 6 decimals, never floats. */
export type Amount = string;
/** Ten-digit Unix seconds. */
export type UnixSeconds = number;

export interface ListParams {
  page?: number;
  limit?: number;
}

export interface ListResult<T> {
  list: T[];
  total: number;
  page: number;
  limit: number;
}

/**
 * The business constants a screen checks before sending (API.md "Site config": `limits`), read from the
 * engine's config so the app never keeps its own copy. The engine checks them again on every call.
 */
export interface SiteLimits {
  /** Smallest internal transfer (code 3001 below it). */
  minTransfer: Amount;
  /** Smallest withdrawal (code 410 below it). */
  minWithdraw: Amount;
  /** Flat withdrawal fee per network. */
  withdrawFee: { TRC20: Amount; ERC20: Amount };
  /** Each VIP level's price: VIP1 a trial fee, VIP2+ a refundable deposit. */
  vipLevels: Array<{ level: number; deposit: Amount }>;
  /** Trading fees in basis points (10 bp = 0.1%). */
  spotFeeBps: number;
  contractFeeBps: number;
  maxLeverage: number;
}

export interface SiteConfig {
  walletAddress: string;
  ercAddress: string;
  customerservice: string;
  demo: boolean;
  limits: SiteLimits;
  /** Quick buy is available (demo, or a live server with a payment provider); else /api/buycoin/* answer 403. */
  quickBuy: boolean;
}

export interface LoginUser {
  id: number | string;
  token: string;
  username: string;
  vip: string;
  balance: Amount;
}

/**
 * Path -> { body, data }. The engine core extends this map as it implements each call; keep it in step
 * with API.md, field for field.
 */
export interface ContractMap
  extends
    CoreContract,
    SecurityContract,
    AddressBookContract,
    AlertsContract,
    FavouritesContract,
    NoticesContract,
    ReservesContract {
  '/index/index/verify': { body: undefined; data: { key: string; image: string; code?: string } };
  '/api/site/getsite': { body: undefined; data: SiteConfig };
  /** `code`/`passkey`: needed only on a new device of a member with two-factor authentication (6101). */
  '/api/index/login': { body: { username: string; password: string; code?: string }; data: string };
  '/api/index/logout': { body: undefined; data: null };
  '/api/market/list': { body: undefined; data: { list: Quote[] } };
  '/api/market/kline': {
    body: { symbol: string; interval: Interval; limit?: number; before?: UnixSeconds };
    data: Candle[];
  };
  '/api/market/depth': { body: { symbol: string; limit?: number }; data: Depth };
  '/api/product/getlist': { body: { type?: 'stable' | 'growth' | 'premium' }; data: { list: ProductView[] } };
  '/api/product/detail': { body: { id: string | number }; data: ProductView };
  '/api/product/buy': { body: { id: string | number; amount: Amount; key: string }; data: FinanceOrderView };
  '/api/product/orders': {
    body: ListParams & { status?: 'active' | 'redeemed' };
    data: ListResult<FinanceOrderView>;
  };
  '/api/account/assets': { body: undefined; data: AssetsView };
  '/api/account/transfer': {
    body: {
      from: 'cash' | 'fund' | 'contract' | 'options';
      to: 'cash' | 'fund' | 'contract' | 'options';
      amount: Amount;
    };
    data: { id: string; from: string; to: string; amount: Amount; time: UnixSeconds };
  };
  '/api/order/place': {
    body: {
      symbol: string;
      market: 'spot' | 'contract' | 'option';
      side: 'buy' | 'sell' | 'open_long' | 'open_short' | 'close_long' | 'close_short' | 'up' | 'down';
      type?: 'market' | 'limit';
      price?: Amount;
      volume: Amount;
      leverage?: number;
      marginMode?: 'cross' | 'isolated';
      period?: number;
      /** open_long/open_short only: mark prices that close the whole position (4038, 4039). */
      takeProfit?: Amount;
      stopLoss?: Amount;
    };
    data: OrderView;
  };
  '/api/order/cancel': { body: { id: string | number }; data: OrderView };
  '/api/order/list': {
    body: ListParams & {
      status?: 'open' | 'filled' | 'partial' | 'cancelled' | 'settled';
      market?: 'spot' | 'contract' | 'option';
    };
    data: ListResult<OrderView>;
  };
  '/api/position/list': { body: { market?: 'contract' }; data: { list: PositionView[]; cross: CrossView } };
  '/api/position/funding': {
    body: ListParams & { positionId?: string | number };
    data: ListResult<FundingView>;
  };
  '/api/position/margin': {
    body: { id: string | number; amount: Amount };
    data: { id: string; margin: Amount };
  };
  /** Sets (a price), removes (null) or keeps (absent) an open position's take-profit and stop-loss. */
  '/api/position/tpsl': {
    body: { id: string | number; takeProfit?: Amount | null; stopLoss?: Amount | null };
    data: PositionTriggersView;
  };
  '/api/position/settings': {
    body: { leverage?: number; marginMode?: 'cross' | 'isolated' };
    data: { leverage: number; marginMode: 'cross' | 'isolated' };
  };
  '/api/mining/list': { body: undefined; data: { list: MachineView[] } };
  '/api/mining/buy': { body: { id: string | number; amount: Amount; key: string }; data: PledgeView };
  '/api/mining/orders': {
    body: ListParams & { status?: 'active' | 'finished' };
    data: ListResult<PledgeView>;
  };
  '/api/user/invite': { body: undefined; data: InviteView };
  '/api/bank/list': { body: undefined; data: { list: BankCardView[] } };
  '/api/bank/add': { body: { bankName: string; cardNumber: string; holder: string }; data: BankCardView };
  '/api/buycoin/quote': { body: { amount: Amount; currency: string }; data: BuycoinQuote };
  '/api/buycoin/buy': {
    body: { amount: Amount; currency: string };
    data: BuycoinQuote & { id: string; status: 'success'; time: UnixSeconds };
  };
  '/api/help/list': { body: { lang?: string }; data: { lang: string; list: HelpArticleView[] } };
  '/api/sprofitlog/getlist': {
    body: ListParams & { type?: 'finance' | 'mining' | 'invite' };
    data: ListResult<ProfitView>;
  };
  '/api/recharge/address': { body: { network: WireNetwork }; data: DepositAddress };
  '/api/recharge/submit': {
    body: { network: WireNetwork; amount: Amount; txid?: string; proof?: string };
    data: DepositRecord;
  };
  '/api/recharge/list': { body: ListParams; data: ListResult<DepositRecord> };
  '/api/demo/chain/send': {
    body: { network: WireNetwork; address: string; amount: Amount };
    data: ChainSendResult;
  };
  '/api/withdraw/fee': { body: { network: WireNetwork; amount: Amount }; data: WithdrawFeeQuote };
  /** Success answers code 911 (awaiting review) with the record in data. */
  '/api/withdraw/submit': {
    body: SecondFactorFields & {
      currency: 'USDT';
      network: WireNetwork;
      address: string;
      amount: Amount;
      key: string;
    };
    data: WithdrawalRecord;
  };
  '/api/withdraw/list': { body: ListParams; data: ListResult<WithdrawalRecord> };
  /** Each result is the envelope the mutation's own call answered, in push order (docs/RULES.md Y1-Y5). */
  '/api/sync/push': {
    body: { clientId: string; mutations: Array<{ id: string; name: string; args?: unknown }> };
    data: { results: Array<{ id: string; code: number; msg: string; data: unknown }> };
  };
  '/api/sync/pull': {
    body: { cursor?: string; limit?: number };
    data: {
      cursor: string;
      changes: Array<{ seq: number; table: string; id: string; op: 'put' | 'delete'; record: unknown }>;
      hasMore: boolean;
    };
  };
}

export type ContractPath = keyof ContractMap;
export type BodyOf<P extends ContractPath> = ContractMap[P]['body'];
export type DataOf<P extends ContractPath> = ContractMap[P]['data'];
