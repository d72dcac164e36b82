/**
 * The registry of domains. Each domain module exports one `Domain`; add yours with ONE line below.
 * The router refuses duplicate paths and job kinds, so two domains cannot silently shadow each other.
 */
import type { Ctx } from './context';
import type { JobRunner, PeriodicHook } from './jobs';
import type { ContractHandlers } from './router';
import { accountsDomain } from './accounts/domain';
import { siteDomain } from './site/handlers';
import { transfersDomain } from './transfers/handlers';
import { vipDomain } from './vip/domain';
import { chainDomain } from './chain/domain';
import { depositsDomain } from './deposits/handlers';
import { withdrawalsDomain } from './withdrawals/handlers';
import { marketDomain } from './market/handlers';
import { financeDomain } from './finance/handlers';
import { assetsDomain } from './assets/handlers';
import { tradingDomain } from './trading/handlers';
import { miningDomain } from './mining/handlers';
import { referralDomain } from './referral/handlers';
import { bankDomain } from './bank/handlers';
import { buycoinDomain } from './buycoin/handlers';
import { helpDomain } from './help/handlers';
import { syncDomain } from './sync/handlers';
import { twoFactorDomain } from './twofactor/handlers';
import { devicesDomain } from './devices/handlers';
import { passkeysDomain } from './passkeys/handlers';
import { addressBookDomain } from './addressbook/handlers';
import { alertsDomain } from './alerts/handlers';
import { favouritesDomain } from './favourites/handlers';
import { noticesDomain } from './notices/handlers';
import { reservesDomain } from './reserves/handlers';

export interface Domain {
  name: string;
  /** Contract path (API.md, e.g. '/api/transfer/submit') -> handler. */
  handlers?: ContractHandlers;
  /** Job kind (prefix it with the domain: 'vip.expire') -> runner. */
  jobs?: Record<string, JobRunner>;
  periodic?: PeriodicHook[];
  /** Runs at every engine open, in one unit of work; must be idempotent (seed records if absent). */
  init?(ctx: Ctx): Promise<void>;
  /** Runs in every unit of work just before its commit, writing through the same ctx (engine/sync's log). */
  beforeCommit?(ctx: Ctx): Promise<void>;
}

export const domains: Domain[] = [
  siteDomain,
  accountsDomain,
  transfersDomain,
  vipDomain,
  marketDomain,
  financeDomain,
  assetsDomain,
  tradingDomain,
  miningDomain,
  referralDomain,
  bankDomain,
  buycoinDomain,
  helpDomain,
  chainDomain,
  depositsDomain,
  withdrawalsDomain,
  twoFactorDomain,
  devicesDomain,
  passkeysDomain,
  addressBookDomain,
  // After trading: its watch liquidates first, so a liquidated position gets no margin warning.
  alertsDomain,
  favouritesDomain,
  noticesDomain,
  reservesDomain,
  syncDomain,
];
