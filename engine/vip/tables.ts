/** VIP history: every trial, purchase, upgrade, expiry and refund, listed by /api/Viplist/records. */
import { defineTable } from '../store/port';

export interface VipRecordRow {
  id: string;
  memberId: string;
  type: 'trial' | 'buy' | 'upgrade' | 'expire' | 'refund';
  fromLevel: number;
  toLevel: number;
  /** Trial fee paid, deposit difference frozen, or deposit released (micro-units as a wire string). */
  amount: string;
  message: string | null;
  createdAt: number;
}

export const vipRecords = defineTable<VipRecordRow>('vipRecords', { member: (r) => r.memberId });
