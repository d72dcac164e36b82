/**
 * Business constants of API.md with their defaults. `createEngine({ config })` overrides any of them
 * shallowly; amounts may be given as decimal strings or micro-unit bigints, durations in ms.
 * Domains read `ctx.config`; add your constants here (one block per area) rather than hard-coding them.
 */
import { DEFAULT_MARKET_MODEL, type MarketModel } from './market/hourly';
import { parseAmount, units, type Micro } from './money';
import { DEFAULT_RISK_TIERS, type RiskTierConfig } from './trading/tiers';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export interface VipLevelConfig {
  level: number;
  /** VIP1: a non-refundable trial fee; VIP2+: a refundable deposit held frozen. */
  deposit: Micro;
  /** Receive limits; null means the level cannot receive transfers. */
  dailyReceive: Micro | null;
  monthlyReceive: Micro | null;
}

export interface NetworkConfig {
  confirmations: number;
  blockMs: number;
  withdrawFee: Micro;
}

/**
 * The deny-list ships with the two chains' burn addresses: a withdrawal there destroys the funds, which a
 * well-run exchange's review stops. Tests and demos can add more through config.
 */
export const DEFAULT_DENY_LIST: readonly string[] = [
  'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb',
  '0x000000000000000000000000000000000000dEaD',
  '0x0000000000000000000000000000000000000000',
];

export interface EngineConfig {
  /** Shown on every demo screen; enables /api/demo/* calls. */
  demo: boolean;
  /**
   * Where tokens, salts and captcha codes come from. 'crypto': crypto.getRandomValues (live servers).
   * 'seeded': derived from the engine seed and a persisted counter, so a seed replays to the same state
   * hash (tests, the in-browser demo whose engine lives on the member's own device).
   */
  secrets: 'crypto' | 'seeded';

  // Security (docs/RULES.md section A)
  pbkdf2Iterations: number;
  tokenTtlMs: number;
  loginFailLimit: number;
  loginFailWindowMs: number;
  captchaLimit: number;
  captchaWindowMs: number;
  captchaTtlMs: number;
  keyFailLimit: number;
  keyLockMs: number;
  resetWithdrawHoldMs: number;
  uploadMaxBytes: number;
  /** All of one member's uploads together (issue 11 item 7): beyond it an upload answers 400. */
  uploadQuotaBytes: number;
  certReviewMs: number;

  // Member security (issue 27; docs/SPEC.md "Member security")
  /** Wrong two-factor codes in a row before authenticator codes are refused (6103), as the key's 5. */
  twoFactorFailLimit: number;
  twoFactorLockMs: number;
  /** An authenticator setup not confirmed within this time must be started again. */
  twoFactorSetupMs: number;
  /** One-time recovery codes handed out when two-factor authentication is turned on. */
  recoveryCodeCount: number;
  /**
   * AES-256-GCM key (base64, 32 bytes) sealing members' authenticator secrets at rest. Empty: a key drawn at
   * random once per database and kept in it (the demo; a live server sets TOTP_ENCRYPTION_KEY).
   */
  secretBoxKey: string;
  /** Origins allowed to use passkeys (WebAuthn); the relying party id is the origin's host. */
  passkeyOrigins: readonly string[];
  passkeyLimit: number;
  passkeyChallengeMs: number;
  /** Logins kept per member in the login history (the oldest go first). */
  loginHistoryLimit: number;
  /**
   * Ed25519 seed (base64, 32 bytes) signing the proof-of-reserves snapshots. Empty: the published demo key in a
   * demo engine (engine/reserves/keys.ts), else a seed drawn at random at the first snapshot and kept in the
   * database (a development server; a live server sets POR_SIGNING_KEY).
   */
  reservesSigningKey: string;
  /** A newly saved withdrawal address waits this long before a whitelisted withdrawal may go to it. */
  addressHoldMs: number;
  /** Saved withdrawal addresses per member. */
  addressBookLimit: number;
  /** Active price alerts per member (6202 above it). */
  alertLimit: number;
  /** A position's margin ratio (basis points) at or above which its member gets a liquidation warning. */
  marginWarningBps: number;
  /** Recipient look-ups (/api/transfer/recipient) per member within the window, found or not (429). */
  recipientLookupLimit: number;
  recipientLookupWindowMs: number;

  // Site
  customerService: string;
  /** Platform deposit addresses for the site config; empty means "ask the chain domain" (meta table). */
  walletAddress: string;
  ercAddress: string;
  /**
   * The deposit wallet's account xpub (m/44'/195'/0'), addresses derived watch-only. Empty: a demo key,
   * generated at random once per database and stored in it; its addresses are marked as demo addresses.
   */
  walletXpub: string;

  // Transfers and VIP (sections T and V)
  minTransfer: Micro;
  vipLevels: VipLevelConfig[];
  vipTrialMs: number;

  // Chains, deposits, withdrawals (owned by the chain domain)
  networks: { TRC20: NetworkConfig; ERC20: NetworkConfig };
  minWithdraw: Micro;
  withdrawReviewMs: number;
  /** Simulated withdrawal review: a single withdrawal above this is rejected (docs/RULES.md W5). */
  withdrawReviewLimit: Micro;
  /** Simulated withdrawal review: destinations it refuses (the chains' burn addresses by default). */
  withdrawDenyList: readonly string[];
  /** Manual deposits (/api/recharge/submit) are credited by the simulated reviewer after this delay. */
  rechargeReviewMs: number;

  /** Where each pair's simulated price walk is pinned: reference time and prices (docs/TRADING.md). */
  marketModel: MarketModel;

  // Finance (owned by the markets domain)
  financeTermDays: number;
  establishedMemberMs: number;

  // Trading and referrals (owned by the markets domain; docs/RULES.md sections S, K, O, R)
  spotFeeBps: number;
  contractFeeBps: number;
  /** Unused since issue 13 (maintenance comes from riskTiers); kept so existing overrides still resolve. */
  maintenanceMarginBps: number;
  maxLeverage: number;
  /**
   * Risk tiers by position notional (maximum leverage, maintenance margin rate), one table per contract
   * pair keyed "BTCUSDT" with `default` for the others, or a single table for every pair (trading/tiers.ts).
   */
  riskTiers: RiskTierConfig;
  /** Price protection band of a taker order, in basis points either side of the traded price (fills.ts). */
  priceBandBps: number;
  /** Option period in seconds -> profit paid on a win, in basis points of the stake. */
  optionPayoutBps: Record<string, number>;
  /** Share of the platform's fee on a direct invitee's trade paid to the inviter. */
  referralShareBps: number;
}

const vip = (
  level: number,
  deposit: number,
  daily: number | null,
  monthly: number | null,
): VipLevelConfig => ({
  level,
  deposit: units(deposit),
  dailyReceive: daily === null ? null : units(daily),
  monthlyReceive: monthly === null ? null : units(monthly),
});

export const defaultConfig: EngineConfig = {
  demo: true,
  secrets: 'crypto',
  pbkdf2Iterations: 600_000,
  tokenTtlMs: 7 * DAY,
  loginFailLimit: 10,
  loginFailWindowMs: 15 * MINUTE,
  captchaLimit: 30,
  captchaWindowMs: MINUTE,
  captchaTtlMs: 5 * MINUTE,
  keyFailLimit: 5,
  keyLockMs: DAY,
  resetWithdrawHoldMs: DAY,
  uploadMaxBytes: 5 * 1024 * 1024,
  uploadQuotaBytes: 50 * 1024 * 1024,
  certReviewMs: 60_000,
  twoFactorFailLimit: 5,
  twoFactorLockMs: DAY,
  twoFactorSetupMs: 15 * MINUTE,
  recoveryCodeCount: 10,
  secretBoxKey: '',
  passkeyOrigins: [],
  passkeyLimit: 10,
  passkeyChallengeMs: 5 * MINUTE,
  loginHistoryLimit: 50,
  reservesSigningKey: '',
  addressHoldMs: DAY,
  addressBookLimit: 50,
  alertLimit: 20,
  marginWarningBps: 8_000,
  recipientLookupLimit: 30,
  recipientLookupWindowMs: 15 * MINUTE,
  customerService: 'support@strata.example (demo)',
  walletAddress: '',
  ercAddress: '',
  walletXpub: '',
  minTransfer: units(1),
  vipLevels: [
    vip(0, 0, null, null),
    vip(1, 50, 500, 3_000),
    vip(2, 500, 5_000, 50_000),
    vip(3, 2_000, 20_000, 200_000),
    vip(4, 10_000, 100_000, 1_000_000),
    vip(5, 50_000, 500_000, 5_000_000),
    vip(6, 200_000, 2_000_000, 20_000_000),
  ],
  vipTrialMs: 60 * DAY,
  networks: {
    TRC20: { confirmations: 19, blockMs: 3_000, withdrawFee: units(1) },
    ERC20: { confirmations: 12, blockMs: 12_000, withdrawFee: units(5) },
  },
  minWithdraw: units(10),
  withdrawReviewMs: 60_000,
  withdrawReviewLimit: units(1_000_000),
  withdrawDenyList: DEFAULT_DENY_LIST,
  rechargeReviewMs: 60_000,
  marketModel: DEFAULT_MARKET_MODEL,
  financeTermDays: 30,
  establishedMemberMs: 7 * DAY,
  spotFeeBps: 10,
  contractFeeBps: 5,
  maintenanceMarginBps: 50,
  maxLeverage: 100,
  priceBandBps: 500,
  riskTiers: DEFAULT_RISK_TIERS,
  optionPayoutBps: { '60': 8000, '300': 8500, '900': 9000 },
  referralShareBps: 2000,
};

function asMicro(key: string, value: unknown): Micro {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'string') return parseAmount(value);
  throw new TypeError(`config.${key} must be a decimal string or a bigint`);
}

/** Merges overrides onto the defaults, converting amount strings; unknown keys are refused (typos). */
export function resolveConfig(overrides: Record<string, unknown> = {}): EngineConfig {
  const config: Record<string, unknown> = { ...defaultConfig };
  for (const [key, value] of Object.entries(overrides)) {
    if (!(key in defaultConfig)) throw new TypeError(`Unknown engine config key: ${key}`);
    const base = (defaultConfig as unknown as Record<string, unknown>)[key];
    config[key] = typeof base === 'bigint' ? asMicro(key, value) : value;
  }
  return config as unknown as EngineConfig;
}

export function vipLevel(config: EngineConfig, level: number): VipLevelConfig | undefined {
  return config.vipLevels.find((v) => v.level === level);
}
