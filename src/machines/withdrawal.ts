/**
 * One withdrawal, from the form to the review's verdict (SPEC.md §4, API.md): editing -> validating ->
 * confirming -> submitting -> awaitingReview (the server's 911 answer, with the record) -> success or
 * rejected; a refused submission is `failed` with its catalogue code; offline, a confirmed withdrawal waits in
 * `queued` and is sent when ONLINE arrives.
 *
 * Interface
 * - input: `{ network?, minimum?, online? }` (minimum: from /api/withdraw/fee, default 10 USDT).
 * - context: form, minimum, fieldErrors (reason codes per field), record (the 911 record), error (Failure),
 *   online.
 * - events: EDIT(patch), SUBMIT, CONFIRM, CANCEL, RETRY, ONLINE, OFFLINE, REVIEW_RESULT(status). The screen
 *   turns feed messages into REVIEW_RESULT with `reviewResultOf(message, context.record.id)`.
 * - emitted: submitted(record), failed(error), queued, reviewed(status).
 * - actors: validate (withdrawal-effects.ts `validateWith(validators)`), submit (the API client).
 * The key is cleared from the form once the server accepted the withdrawal (911). Snapshots taken before
 * that hold the key: persist only awaitingReview, success or rejected.
 */
import { assertEvent, assign, emit, setup } from 'xstate';
import { isUnanswered, toFailure, type Failure } from './failure';
import { submitWithdrawal, validateWith, type WithdrawalRecord } from './withdrawal-effects';
import { DEFAULT_MINIMUM, type FieldErrors, type Network, type WithdrawalForm } from './withdrawal-rules';

export { reviewResultOf, type WithdrawalRecord } from './withdrawal-effects';
export type { FieldErrors, FieldReason, Network, WithdrawalForm } from './withdrawal-rules';

export interface WithdrawalInput {
  network?: Network;
  minimum?: string;
  online?: boolean;
}

export interface WithdrawalContext {
  form: WithdrawalForm;
  minimum: string;
  fieldErrors: FieldErrors;
  record: WithdrawalRecord | null;
  error: Failure | null;
  online: boolean;
  /** The confirmed submission's mutation id (withdrawal-effects.ts): kept across resends, new per attempt. */
  mutationId: string | null;
}

export type ReviewStatus = 'success' | 'rejected';

export type WithdrawalEvent =
  | { type: 'EDIT'; patch: Partial<WithdrawalForm> }
  | { type: 'SUBMIT' }
  | { type: 'CONFIRM' }
  | { type: 'CANCEL' }
  | { type: 'RETRY' }
  | { type: 'ONLINE' }
  | { type: 'OFFLINE' }
  | { type: 'REVIEW_RESULT'; status: ReviewStatus };

export type WithdrawalEmitted =
  | { type: 'submitted'; record: WithdrawalRecord }
  | { type: 'failed'; error: Failure }
  | { type: 'queued' }
  | { type: 'reviewed'; status: ReviewStatus };

export function emptyForm(network: Network = 'TRC20'): WithdrawalForm {
  return { currency: 'USDT', network, address: '', amount: '', key: '' };
}

/**
 * CONFIRM and RETRY: an attempt, sent now or queued when the device is offline. It gets a new mutation id
 * unless the last one never got the server's answer (see newAttempt), so sending it again is idempotent.
 */
const sendOrQueue = [
  { guard: 'isOffline' as const, target: 'queued' as const, actions: 'newAttempt' as const },
  { target: 'submitting' as const, actions: 'newAttempt' as const },
];

function newMutationId(): string {
  return globalThis.crypto.randomUUID();
}

export const withdrawalMachine = setup({
  types: {
    input: {} as WithdrawalInput,
    context: {} as WithdrawalContext,
    events: {} as WithdrawalEvent,
    emitted: {} as WithdrawalEmitted,
  },
  actors: { validate: validateWith(), submit: submitWithdrawal },
  guards: {
    isOffline: ({ context }) => !context.online,
  },
  actions: {
    applyEdit: assign({
      form: ({ context, event }) => {
        assertEvent(event, 'EDIT');
        return { ...context.form, ...event.patch };
      },
      // A field the member changes loses its old complaint; the others keep theirs until the next SUBMIT.
      fieldErrors: ({ context, event }) => {
        assertEvent(event, 'EDIT');
        const next = { ...context.fieldErrors };
        for (const field of Object.keys(event.patch)) delete next[field as keyof FieldErrors];
        return next;
      },
    }),
    /** After a verdict or a failure, the next withdrawal starts from a fresh form on the same network. */
    startOver: assign({
      form: ({ context }) => emptyForm(context.form.network),
      record: null,
      error: null,
      fieldErrors: {},
    }),
    forgetKey: assign({ form: ({ context }) => ({ ...context.form, key: '' }) }),
    // After a timeout nobody knows whether the server applied the submission: RETRY resends the same
    // mutation (answered once, ever); after a server's answer the next attempt is a new mutation.
    newAttempt: assign({
      mutationId: ({ context }) =>
        context.mutationId && context.error && typeof context.error.code === 'string'
          ? context.mutationId
          : newMutationId(),
    }),
    goOnline: assign({ online: true }),
    goOffline: assign({ online: false }),
    announceQueued: emit({ type: 'queued' }),
  },
}).createMachine({
  id: 'withdrawal',
  context: ({ input }) => ({
    form: emptyForm(input.network),
    minimum: input.minimum ?? DEFAULT_MINIMUM,
    fieldErrors: {},
    record: null,
    error: null,
    online: input.online ?? true,
    mutationId: null,
  }),
  on: {
    ONLINE: { actions: 'goOnline' },
    OFFLINE: { actions: 'goOffline' },
  },
  initial: 'editing',
  states: {
    editing: {
      on: {
        EDIT: { actions: 'applyEdit' },
        SUBMIT: { target: 'validating', actions: assign({ error: null }) },
      },
    },
    validating: {
      invoke: {
        id: 'validate',
        src: 'validate',
        input: ({ context }) => ({ form: context.form, minimum: context.minimum }),
        onDone: [
          {
            guard: ({ event }) => Object.keys(event.output).length > 0,
            target: 'editing',
            actions: assign({ fieldErrors: ({ event }) => event.output }),
          },
          { target: 'confirming', actions: assign({ fieldErrors: {} }) },
        ],
        // A validator that throws is a bug, not a member's mistake: say so instead of sending.
        onError: { target: 'editing', actions: assign({ error: ({ event }) => toFailure(event.error) }) },
      },
    },
    confirming: {
      on: {
        CONFIRM: sendOrQueue,
        CANCEL: 'editing',
      },
    },
    submitting: {
      invoke: {
        id: 'submit',
        src: 'submit',
        input: ({ context }) => ({ ...context.form, mutationId: context.mutationId }),
        onDone: {
          target: 'awaitingReview',
          actions: [
            assign({ record: ({ event }) => event.output, error: null }),
            'forgetKey',
            emit(({ event }) => ({ type: 'submitted' as const, record: event.output })),
          ],
        },
        onError: [
          {
            // Nothing answered and the device is (now) offline: keep the submission for when it is back.
            guard: ({ context, event }) => !context.online || isUnanswered(toFailure(event.error)),
            target: 'queued',
            actions: assign({ online: false }),
          },
          {
            target: 'failed',
            actions: [
              // The key stays: RETRY resends as is, and EDIT lets a wrong key (3007) be corrected.
              assign({ error: ({ event }) => toFailure(event.error) }),
              emit(({ event }) => ({ type: 'failed' as const, error: toFailure(event.error) })),
            ],
          },
        ],
      },
    },
    queued: {
      entry: 'announceQueued',
      on: {
        ONLINE: { target: 'submitting', actions: 'goOnline' },
        CANCEL: { target: 'editing', actions: 'forgetKey' },
      },
    },
    awaitingReview: {
      on: {
        REVIEW_RESULT: [
          {
            guard: ({ event }) => event.status === 'success',
            target: 'success',
            actions: emit({ type: 'reviewed', status: 'success' }),
          },
          { target: 'rejected', actions: emit({ type: 'reviewed', status: 'rejected' }) },
        ],
      },
    },
    success: { on: { EDIT: { target: 'editing', actions: ['startOver', 'applyEdit'] } } },
    rejected: { on: { EDIT: { target: 'editing', actions: ['startOver', 'applyEdit'] } } },
    failed: {
      on: {
        RETRY: sendOrQueue,
        // Back to the form with what was typed, so a wrong key or amount can be corrected.
        EDIT: { target: 'editing', actions: [assign({ error: null }), 'applyEdit'] },
      },
    },
  },
});
