/**
 * One withdrawal, from the form to the review's verdict (SPEC.md §4, API.md): editing -> validating ->
 * confirming -> submitting -> awaitingReview (the server's 911 answer, with the record) -> success or
 * rejected; a refused submission is `failed` with its catalogue code. Submitted through the device's outbox
 * under a mutation id fixed at CONFIRM, the key withheld from the device; refused offline, and `waiting` for
 * the outbox's answer when the connection drops mid-flight (docs/DECISIONS.md "Machines and the demo
 * worker", docs/OFFLINE.md). Its interface is documented on `withdrawalMachine` below.
 */
import { assertEvent, assign, emit, setup } from 'xstate';
import type { SecondFactorFields } from '../../engine/index';
import { CLIENT_CODES } from '../api/transport';
import { isUnanswered, toFailure, type Failure } from './failure';
import { awaitWithdrawal, submitWithdrawal, validateWith, type WithdrawalRecord } from './withdrawal-effects';
import { type FieldErrors, type Network, type WithdrawalForm } from './withdrawal-rules';

export { reviewResultOf, type WithdrawalRecord } from './withdrawal-effects';
export type { FieldErrors, FieldReason, Network, WithdrawalForm } from './withdrawal-rules';

export interface WithdrawalInput {
  network?: Network;
  minimum?: string;
  online?: boolean;
}

export interface WithdrawalContext {
  form: WithdrawalForm;
  minimum: string | null;
  fieldErrors: FieldErrors;
  record: WithdrawalRecord | null;
  error: Failure | null;
  online: boolean;
  /** The confirmed submission's mutation id (withdrawal-effects.ts): kept across resends, new per attempt. */
  mutationId: string | null;
  /**
   * The second factor given at CONFIRM by a member with two-factor authentication (an authenticator code or a
   * passkey's answer; API.md "Member security"), withheld from the device like the key; null without it.
   */
  factor: SecondFactorFields | null;
}

export type ReviewStatus = 'success' | 'rejected';

export type WithdrawalEvent =
  | { type: 'EDIT'; patch: Partial<WithdrawalForm> }
  | { type: 'SUBMIT' }
  | { type: 'CONFIRM'; factor?: SecondFactorFields }
  | { type: 'CANCEL' }
  | { type: 'RETRY' }
  | { type: 'ONLINE' }
  | { type: 'OFFLINE' }
  | { type: 'MINIMUM'; minimum: string }
  | { type: 'REVIEW_RESULT'; status: ReviewStatus };

export type WithdrawalEmitted =
  | { type: 'submitted'; record: WithdrawalRecord }
  | { type: 'failed'; error: Failure }
  | { type: 'waiting' }
  | { type: 'reviewed'; status: ReviewStatus };

export function emptyForm(network: Network = 'TRC20'): WithdrawalForm {
  return { currency: 'USDT', network, address: '', amount: '', key: '' };
}

/**
 * CONFIRM and RETRY: an attempt, sent now with a new mutation id; refused before anything is sent when the
 * device is offline (a withdrawal needs its key, which never waits on the device).
 */
const sendOrRefuse = [
  { guard: 'isOffline' as const, target: 'editing' as const, actions: 'refuseOffline' as const },
  { target: 'submitting' as const, actions: ['newAttempt' as const, 'takeFactor' as const] },
];

function newMutationId(): string {
  return globalThis.crypto.randomUUID();
}

/**
 * Interface
 * - input: `{ network?, minimum?, online? }` (minimum: the engine's, from getsite's limits or the fee quote;
 *   until it is known the form checks no minimum and the engine refuses below it with 410). MINIMUM updates it.
 * - context: form, minimum, fieldErrors (reason codes per field), record (the 911 record), error (Failure),
 *   online, mutationId.
 * - events: EDIT(patch), SUBMIT, CONFIRM, CANCEL, RETRY, ONLINE, OFFLINE, REVIEW_RESULT(status). The screen
 *   turns feed messages into REVIEW_RESULT with `reviewResultOf(message, context.record.id)`.
 * - emitted: submitted(record), failed(error), waiting, reviewed(status).
 * - actors: validate (withdrawal-effects.ts `validateWith(validators)`), submit (into the outbox and pushed
 *   at once: the answer, or an unanswered error), answer (the outbox's answer to `mutationId`, later).
 * The key is cleared from the form once the server accepted the withdrawal (911). Snapshots taken before
 * that hold the key: persist only awaitingReview, success or rejected.
 */
export const withdrawalMachine = setup({
  types: {
    input: {} as WithdrawalInput,
    context: {} as WithdrawalContext,
    events: {} as WithdrawalEvent,
    emitted: {} as WithdrawalEmitted,
  },
  actors: { validate: validateWith(), submit: submitWithdrawal, answer: awaitWithdrawal },
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
    forgetKey: assign({ form: ({ context }) => ({ ...context.form, key: '' }), factor: null }),
    /** CONFIRM carries the second factor (a code is good once: a new attempt after a refusal asks again). */
    takeFactor: assign({
      factor: ({ context, event }) => (event.type === 'CONFIRM' ? (event.factor ?? null) : context.factor),
    }),
    // Every attempt is a new mutation: an unanswered one is resent by the outbox under its own id (waiting),
    // never by the machine, so only a server's answer (failed) leads to another attempt.
    newAttempt: assign({ mutationId: () => newMutationId(), error: null }),
    refuseOffline: assign({ error: { code: CLIENT_CODES.offline, msg: '' } }),
    goOnline: assign({ online: true }),
    goOffline: assign({ online: false }),
    announceWaiting: emit({ type: 'waiting' }),
  },
}).createMachine({
  id: 'withdrawal',
  context: ({ input }) => ({
    form: emptyForm(input.network),
    minimum: input.minimum ?? null,
    fieldErrors: {},
    record: null,
    error: null,
    online: input.online ?? true,
    mutationId: null,
    factor: null,
  }),
  on: {
    ONLINE: { actions: 'goOnline' },
    OFFLINE: { actions: 'goOffline' },
    MINIMUM: { actions: assign({ minimum: ({ event }) => event.minimum }) },
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
        CONFIRM: sendOrRefuse,
        CANCEL: 'editing',
      },
    },
    submitting: {
      invoke: {
        id: 'submit',
        src: 'submit',
        input: ({ context }) => ({ ...context.form, ...context.factor, mutationId: context.mutationId }),
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
            // Nothing answered (the connection dropped, the answer was lost): the submission is in the outbox,
            // which pushes it again under the same id; wait for that answer.
            guard: ({ event }) => isUnanswered(toFailure(event.error)),
            target: 'waiting',
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
    waiting: {
      entry: 'announceWaiting',
      invoke: {
        id: 'answer',
        src: 'answer',
        input: ({ context }) => ({ mutationId: context.mutationId ?? '' }),
        onDone: {
          target: 'awaitingReview',
          actions: [
            assign({ record: ({ event }) => event.output, error: null }),
            'forgetKey',
            emit(({ event }) => ({ type: 'submitted' as const, record: event.output })),
          ],
        },
        onError: {
          target: 'failed',
          actions: [
            assign({ error: ({ event }) => toFailure(event.error) }),
            emit(({ event }) => ({ type: 'failed' as const, error: toFailure(event.error) })),
          ],
        },
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
        RETRY: sendOrRefuse,
        // Back to the form with what was typed, so a wrong key or amount can be corrected; a code is asked again.
        EDIT: { target: 'editing', actions: [assign({ error: null, factor: null }), 'applyEdit'] },
      },
    },
  },
});
