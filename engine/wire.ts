/**
 * Wire types of the engine core's calls (accounts, transfers, VIP), referenced by ContractMap in
 * engine/contract.ts. Amounts are decimal strings, times Unix seconds.
 */
import type { Amount, ListParams, ListResult, UnixSeconds } from './contract';
import type { SecondFactorFields } from './twofactor/wire';

export interface RegisterBody {
  username: string;
  password: string;
  repassword: string;
  key: string;
  rekey: string;
  email?: string;
  phone?: string;
  invite?: string;
  verify: string;
  verifyKey: string;
  question: string;
  answer: string;
}

export interface MemberProfile {
  id: string;
  username: string;
  email: string | null;
  phone: string | null;
  vip: string;
  vipExpiresAt: UnixSeconds | null;
  /** Cash: available + frozen. */
  balance: Amount;
  available: Amount;
  frozen: Amount;
  totalAssets: Amount;
  creditScore: number;
  realNameStatus: 'none' | 'under review' | 'passed' | 'rejected';
  inviteCode: string;
  createdAt: UnixSeconds;
}

export interface UploadedFile {
  name: string;
  type: string;
  size: number;
  dataUrl: string;
}

export interface CertRecord {
  id: string;
  memberId: string;
  realName: string;
  /** Masked: only the last 4 characters are kept. */
  idNumber: string;
  frontImage: string;
  backImage: string;
  status: 'under review' | 'passed' | 'rejected';
  createdAt: UnixSeconds;
  reviewedAt: UnixSeconds | null;
}

export interface TransferRecord {
  id: string;
  direction: 'in' | 'out';
  /** The counterparty's username. */
  account: string;
  from: string;
  to: string;
  amount: Amount;
  status: 'success';
  createdAt: UnixSeconds;
}

export interface VipLevelInfo {
  level: number;
  name: string;
  deposit: Amount;
  dailyLimit: Amount | null;
  monthlyLimit: Amount | null;
  trial: boolean;
  refundable: boolean;
  validDays: number | null;
  current: boolean;
}

export interface VipList {
  current: string;
  expiresAt: UnixSeconds | null;
  /** Deposit currently held frozen for VIP. */
  deposit: Amount;
  /** Set after a VIP1 trial expired: the "upgrade to VIP2 or above" message. */
  notice: string | null;
  list: VipLevelInfo[];
}

export interface VipRecord {
  id: string;
  type: 'trial' | 'buy' | 'upgrade' | 'expire' | 'refund';
  from: string;
  to: string;
  amount: Amount;
  message: string | null;
  createdAt: UnixSeconds;
}

/** Multipart bodies: a FormData with field `file` (or `{ file: Blob }`). */
export type UploadBody = { get(name: string): unknown } | { file: unknown };

export interface CoreContract {
  '/api/index/register': { body: RegisterBody; data: { id: string } };
  '/api/user/getuser': { body: undefined; data: MemberProfile };
  '/api/user/editPsw': {
    body: SecondFactorFields & { oldPassword: string; password: string; repassword: string };
    data: null;
  };
  '/api/user/edituserPsw': {
    body: SecondFactorFields & { oldKey: string; key: string; rekey: string };
    data: null;
  };
  '/api/index/question': { body: { username: string }; data: { question: string } };
  '/api/index/forget': {
    body: { username: string; answer: string; password: string; repassword: string; code?: string };
    data: null;
  };
  '/api/index/forgetKey': {
    body: { username: string; password: string; answer: string; key: string; rekey: string; code?: string };
    data: null;
  };
  '/api/user/uploads': { body: UploadBody; data: { url: string } };
  '/api/Recharges/uploads': { body: UploadBody; data: { url: string } };
  '/api/user/cert': {
    body: { realName: string; idNumber: string; frontImage: string; backImage: string };
    data: CertRecord;
  };
  '/api/transfer/submit': {
    body: SecondFactorFields & { account: string; amount: Amount };
    data: TransferRecord;
  };
  '/api/transfer/list': { body: ListParams & { direction?: 'in' | 'out' }; data: ListResult<TransferRecord> };
  '/api/Viplist/getlist': { body: undefined; data: VipList };
  '/api/Viplist/Buyvip': {
    body: { level: number | string; key: string };
    data: { vip: string; deposit: Amount; expiresAt?: UnixSeconds };
  };
  '/api/Viplist/refund': { body: { level: number | string }; data: { vip: string; refunded: Amount } };
  '/api/Viplist/records': { body: ListParams; data: ListResult<VipRecord> };
}
