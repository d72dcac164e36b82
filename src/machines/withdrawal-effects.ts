/**
 * The withdrawal machine's default effects: the form checks of withdrawal-rules.ts, and the submission
 * through the app's API client. Tests and screens swap them with `.provide()`.
 */
import { fromPromise } from 'xstate';
import type { BodyOf, DataOf, FeedMessage, SecondFactorFields } from '../../engine/index';
import { ApiError, api, isApiError, reportError } from '../api';
import { CLIENT_CODES } from '../api/transport';
import { appWrites } from '../sync/app-writes';
import type { SettledResult } from '../sync/outbox';
import { isApplied } from '../sync/writes';
import {
  defaultValidators,
  validateForm,
  type FieldErrors,
  type WithdrawalForm,
  type WithdrawalValidators,
} from './withdrawal-rules';

/** The withdrawal record of /api/withdraw/submit and /api/withdraw/list: the engine's (engine/contract.ts). */
export type WithdrawalRecord = DataOf<'/api/withdraw/submit'>;

/** 911 "submitted, awaiting review": the answer a successful submission gets (API.md). */
export const SUBMITTED_CODE = 911;

export function validateWith(validators: WithdrawalValidators = defaultValidators) {
  return fromPromise<FieldErrors, { form: WithdrawalForm; minimum: string | null }>(async ({ input }) =>
    validateForm(input.form, input.minimum, validators),
  );
}

/** The submission's input: the form, and the mutation id that makes every resend of it the same request. */
export interface SubmitInput extends WithdrawalForm, SecondFactorFields {
  /** Fixed when the member confirms; a resend after a lost answer reuses it, so the server applies it once. */
  mutationId?: string | null;
}

/** The fields of a withdrawal never written to the device: the security key and the second factor. */
export const WITHHELD = ['key', 'code', 'passkey'] as const;

/**
 * Submits through the device's outbox (src/sync/writes.ts) under the confirmation's mutation id, the key
 * withheld from IndexedDB, pushed at once. Answered: 911 (or 0) gives the record; a refusal is presented like
 * any call's and thrown. Unanswered (the connection dropped, the answer was lost): an ERR_NETWORK error, and
 * the entry stays in the outbox, which pushes it again under the same id (`awaitWithdrawal` gets its answer),
 * so a withdrawal whose answer was lost is applied at most once.
 */
export const submitWithdrawal = fromPromise<WithdrawalRecord, SubmitInput>(async ({ input }) => {
  const args: BodyOf<'/api/withdraw/submit'> = {
    // The form's currency is always USDT (the only one); the engine checks it anyway.
    currency: input.currency as BodyOf<'/api/withdraw/submit'>['currency'],
    network: input.network,
    address: input.address.trim(),
    amount: input.amount.trim(),
    key: input.key,
    // Only a member with two-factor authentication gives one (API.md): without, the call is as it always was.
    ...(input.code ? { code: input.code } : {}),
    ...(input.passkey ? { passkey: input.passkey } : {}),
  };
  if (!input.mutationId) return submitDirect(args);
  const writes = appWrites();
  const { result } = await writes.send('/api/withdraw/submit', args, {
    secret: WITHHELD,
    id: input.mutationId,
  });
  if (!result) throw new ApiError(CLIENT_CODES.network, '', null);
  await writes.acknowledge(input.mutationId);
  return recordOf(result);
});

/** The answer to a withdrawal left waiting in the outbox, whenever it arrives (pushed by any tab). */
export const awaitWithdrawal = fromPromise<WithdrawalRecord, { mutationId: string }>(
  async ({ input, signal }) => {
    const writes = appWrites();
    const result = await writes.answer(input.mutationId, signal);
    await writes.acknowledge(input.mutationId);
    return recordOf(result);
  },
);

/** 911 and 0 carry the record; anything else is the refusal, presented and thrown. */
function recordOf(result: SettledResult): WithdrawalRecord {
  if (isApplied(result.code)) return toRecord(result.data);
  const error = new ApiError(result.code, result.msg, result.data);
  reportError(error);
  throw error;
}

/** Without a mutation id (tests, tools): the plain call; the client presents its answer, 911 included. */
async function submitDirect(args: BodyOf<'/api/withdraw/submit'>): Promise<WithdrawalRecord> {
  try {
    return await api.call('/api/withdraw/submit', args);
  } catch (error) {
    if (isApiError(error) && error.code === SUBMITTED_CODE) return toRecord(error.data);
    throw error;
  }
}

/** An applied answer's data, read back from the outbox or an ApiError: the contract's record of the call. */
function toRecord(data: unknown): WithdrawalRecord {
  return data as WithdrawalRecord;
}

/**
 * The review's verdict from the real-time feed: `withdrawal` events carry `{ memberId, id, status }`. Answers
 * the REVIEW_RESULT to send for the record the machine is waiting on, or null.
 */
export function reviewResultOf(
  message: FeedMessage,
  recordId: unknown,
): { type: 'REVIEW_RESULT'; status: 'success' | 'rejected' } | null {
  // A live server's messages are parsed JSON: the shape is checked, not trusted.
  if (message.type !== 'withdrawal' || typeof message.data !== 'object' || message.data === null) return null;
  const { id, status } = message.data;
  if (id === undefined || String(id) !== String(recordId)) return null;
  return status === 'success' || status === 'rejected' ? { type: 'REVIEW_RESULT', status } : null;
}
