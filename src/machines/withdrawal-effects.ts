/**
 * The withdrawal machine's default effects: the form checks of withdrawal-rules.ts, and the submission
 * through the app's API client. Tests and screens swap them with `.provide()`.
 */
import { fromPromise } from 'xstate';
import type { FeedMessage } from '../../engine/index';
import { api, isApiError } from '../api';
import {
  defaultValidators,
  validateForm,
  type FieldErrors,
  type WithdrawalForm,
  type WithdrawalValidators,
} from './withdrawal-rules';

/** The withdrawal record of /api/withdraw/submit and /api/withdraw/list; the engine owns its fields. */
export type WithdrawalRecord = Record<string, unknown>;

/** 911 "submitted, awaiting review": the answer a successful submission gets (API.md). */
export const SUBMITTED_CODE = 911;

export function validateWith(validators: WithdrawalValidators = defaultValidators) {
  return fromPromise<FieldErrors, { form: WithdrawalForm; minimum: string }>(async ({ input }) =>
    validateForm(input.form, input.minimum, validators),
  );
}

/**
 * The client rejects every code but 0/200 (after its toast, which for 911 is the "awaiting review" message
 * members should see), so 911 is caught here and turned into the record it carries.
 */
export const submitWithdrawal = fromPromise<WithdrawalRecord, WithdrawalForm>(async ({ input }) => {
  try {
    const data = await api.call('/api/withdraw/submit', {
      currency: input.currency,
      network: input.network,
      address: input.address.trim(),
      amount: input.amount.trim(),
      key: input.key,
    });
    return toRecord(data);
  } catch (error) {
    if (isApiError(error) && error.code === SUBMITTED_CODE) return toRecord(error.data);
    throw error;
  }
});

function toRecord(data: unknown): WithdrawalRecord {
  return typeof data === 'object' && data !== null ? (data as WithdrawalRecord) : {};
}

/**
 * The review's verdict from the real-time feed: `withdrawal` events carry `{ memberId, id, status }`. Answers
 * the REVIEW_RESULT to send for the record the machine is waiting on, or null.
 */
export function reviewResultOf(
  message: FeedMessage,
  recordId: unknown,
): { type: 'REVIEW_RESULT'; status: 'success' | 'rejected' } | null {
  if (message.type !== 'withdrawal' || typeof message.data !== 'object' || message.data === null) return null;
  const { id, status } = message.data as { id?: unknown; status?: unknown };
  if (id === undefined || String(id) !== String(recordId)) return null;
  return status === 'success' || status === 'rejected' ? { type: 'REVIEW_RESULT', status } : null;
}
