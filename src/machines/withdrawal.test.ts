import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createActor, initialTransition, transition, type AnyMachineSnapshot } from 'xstate';
import { ApiError } from '../api/api-error';
import type { FeedMessage } from '../../engine/index';
import { controlled, flush } from '../../tests/app/controlled-actors';
import { machineCoverage } from '../../tests/app/machine-coverage';
import {
  withdrawalMachine,
  type WithdrawalContext,
  type WithdrawalEvent,
  type WithdrawalForm,
  type WithdrawalRecord,
} from './withdrawal';
import { reviewResultOf, validateWith, type SubmitInput } from './withdrawal-effects';
import { defaultValidators, type FieldErrors } from './withdrawal-rules';

const TRON = 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8';
const ETH = '0x52908400098527886E0F7030069857D2E4169EE7';
const GOOD: Partial<WithdrawalForm> = { address: TRON, amount: '12.5', key: '1234' };
const RECORD: WithdrawalRecord = {
  id: 'w1',
  currency: 'USDT',
  network: 'TRC20',
  address: TRON,
  amount: '12.5',
  fee: '1',
  received: '11.5',
  status: 'pending',
  txid: null,
  reason: null,
  createdAt: 1_767_600_000,
  reviewAt: 1_767_600_300,
  finishedAt: null,
};

function start(input: { online?: boolean; minimum?: string } = {}) {
  const submit = controlled<WithdrawalRecord, SubmitInput>();
  const answer = controlled<WithdrawalRecord, { mutationId: string }>();
  const actor = createActor(
    withdrawalMachine.provide({
      actors: { submit: submit.logic, validate: validateWith(), answer: answer.logic },
    }),
    { input },
  );
  const emitted: string[] = [];
  actor.on('*', (event) => emitted.push(event.type));
  actor.start();
  const state = () => actor.getSnapshot().value;
  const context = (): WithdrawalContext => actor.getSnapshot().context;
  return { actor, submit, answer, emitted, state, context };
}

async function toConfirming(input: { online?: boolean } = {}) {
  const s = start(input);
  s.actor.send({ type: 'EDIT', patch: GOOD });
  s.actor.send({ type: 'SUBMIT' });
  await flush();
  return s;
}

describe('withdrawal rules', () => {
  it('compares amounts exactly in micro-USDT', () => {
    // The engine's own rule: 19 integer digits are refused here exactly as the engine refuses them.
    expect(defaultValidators.amount('1234567890123456789', '10')).toBe('invalidAmount');
    expect(defaultValidators.amount('1.1234567', '10')).toBe('invalidAmount');
    expect(defaultValidators.amount('-1', '10')).toBe('invalidAmount');
    expect(defaultValidators.amount('9.999999', '10')).toBe('belowMinimum');
    expect(defaultValidators.amount('10', '10')).toBeNull();
    expect(defaultValidators.amount('1e3', '10')).toBe('invalidAmount');
    expect(defaultValidators.amount('', '10')).toBe('required');
  });

  it('checks the address against the chosen network and the key length', () => {
    expect(defaultValidators.address(TRON, 'TRC20')).toBeNull();
    expect(defaultValidators.address(ETH, 'ERC20')).toBeNull();
    expect(defaultValidators.address(ETH, 'TRC20')).toBe('otherNetwork');
    expect(defaultValidators.address('T123', 'TRC20')).toBe('invalidAddress');
    expect(defaultValidators.key('abc')).toBe('keyTooShort');
    expect(defaultValidators.key('abcd')).toBeNull();
  });
});

describe('withdrawal machine', () => {
  it('sends an invalid form back to editing with a reason per field; editing a field clears its reason', async () => {
    const s = start({ minimum: '10' });
    s.actor.send({ type: 'EDIT', patch: { amount: '5', address: ETH, key: 'abc' } });
    s.actor.send({ type: 'SUBMIT' });
    expect(s.state()).toBe('validating');
    await flush();
    expect(s.state()).toBe('editing');
    expect(s.context().fieldErrors).toEqual({
      amount: 'belowMinimum',
      address: 'otherNetwork',
      key: 'keyTooShort',
    });
    s.actor.send({ type: 'EDIT', patch: { amount: '10' } });
    expect(s.context().fieldErrors).toEqual({ address: 'otherNetwork', key: 'keyTooShort' });
    expect(s.submit.calls).toEqual([]);
  });

  it("checks no minimum of its own until the engine's is known, then the engine's (MINIMUM)", async () => {
    const s = start();
    expect(s.context().minimum).toBeNull();
    s.actor.send({ type: 'EDIT', patch: { ...GOOD, amount: '5' } });
    s.actor.send({ type: 'SUBMIT' });
    await flush();
    expect(s.context().fieldErrors).toEqual({});
    s.actor.send({ type: 'CANCEL' });
    const t = start();
    t.actor.send({ type: 'MINIMUM', minimum: '12.5' });
    t.actor.send({ type: 'EDIT', patch: { ...GOOD, amount: '12.499999' } });
    t.actor.send({ type: 'SUBMIT' });
    await flush();
    expect(t.state()).toBe('editing');
    expect(t.context().fieldErrors).toEqual({ amount: 'belowMinimum' });
  });

  it('uses injected validators', async () => {
    const s = createActor(
      withdrawalMachine.provide({
        actors: { validate: validateWith({ ...defaultValidators, address: () => 'invalidAddress' }) },
      }),
      { input: {} },
    ).start();
    s.send({ type: 'EDIT', patch: GOOD });
    s.send({ type: 'SUBMIT' });
    await flush();
    expect(s.getSnapshot().context.fieldErrors).toEqual({ address: 'invalidAddress' });
  });

  it('confirms, submits, waits for review after 911 with the record, then succeeds', async () => {
    const s = await toConfirming();
    expect(s.state()).toBe('confirming');
    s.actor.send({ type: 'CONFIRM' });
    expect(s.state()).toBe('submitting');
    expect(s.submit.calls).toEqual([
      { currency: 'USDT', network: 'TRC20', ...GOOD, mutationId: expect.any(String) as unknown },
    ]);
    await s.submit.resolve(RECORD);
    expect(s.state()).toBe('awaitingReview');
    expect(s.context().record).toEqual(RECORD);
    expect(s.context().form.key).toBe('');
    s.actor.send({ type: 'REVIEW_RESULT', status: 'success' });
    expect(s.state()).toBe('success');
    expect(s.emitted).toEqual(['submitted', 'reviewed']);
    s.actor.send({ type: 'EDIT', patch: { amount: '20' } });
    expect(s.context()).toMatchObject({ record: null, form: { amount: '20', address: '', key: '' } });
  });

  it('a rejected review ends in rejected', async () => {
    const s = await toConfirming();
    s.actor.send({ type: 'CONFIRM' });
    await s.submit.resolve(RECORD);
    s.actor.send({ type: 'REVIEW_RESULT', status: 'rejected' });
    expect(s.state()).toBe('rejected');
  });

  it('a refused submission is failed with its code; the key can be corrected and sent again', async () => {
    const s = await toConfirming();
    s.actor.send({ type: 'CONFIRM' });
    await s.submit.reject(new ApiError(3007, 'key wrong', null));
    expect(s.state()).toBe('failed');
    expect(s.context().error).toEqual({ code: 3007, msg: 'key wrong' });
    s.actor.send({ type: 'RETRY' });
    await s.submit.reject(new ApiError(500, '', null));
    s.actor.send({ type: 'EDIT', patch: { key: '5678' } });
    expect(s.state()).toBe('editing');
    expect(s.context().error).toBeNull();
    s.actor.send({ type: 'SUBMIT' });
    await flush();
    s.actor.send({ type: 'CONFIRM' });
    expect(s.submit.calls.map((c) => c.key)).toEqual(['1234', '1234', '5678']);
  });

  it('offline, a confirmed withdrawal is refused before anything is sent: it cannot wait in the outbox', async () => {
    const s = await toConfirming();
    s.actor.send({ type: 'OFFLINE' });
    s.actor.send({ type: 'CONFIRM' });
    expect(s.state()).toBe('editing');
    expect(s.context().error).toEqual({ code: 'ERR_OFFLINE', msg: '' });
    expect(s.context().form).toMatchObject(GOOD);
    expect(s.submit.calls).toHaveLength(0);
    s.actor.send({ type: 'ONLINE' });
    s.actor.send({ type: 'SUBMIT' });
    await flush();
    expect(s.context().error).toBeNull();
    s.actor.send({ type: 'CONFIRM' });
    expect(s.submit.calls).toHaveLength(1);
  });

  it('a submission nothing answered waits for the outbox to push it again, under the same mutation id', async () => {
    const s = await toConfirming();
    s.actor.send({ type: 'CONFIRM' });
    await s.submit.reject(new ApiError('ERR_NETWORK', '', null));
    expect(s.state()).toBe('waiting');
    expect(s.emitted).toEqual(['waiting']);
    expect(s.answer.calls).toEqual([{ mutationId: s.submit.calls[0]?.mutationId }]);
    // The machine never resends: ONLINE changes nothing but the flag; the outbox resends.
    s.actor.send({ type: 'OFFLINE' });
    s.actor.send({ type: 'ONLINE' });
    expect(s.submit.calls).toHaveLength(1);
    await s.answer.resolve(RECORD);
    expect(s.state()).toBe('awaitingReview');
    expect(s.context().form.key).toBe('');
  });

  it('a lost answer that turns out refused is failed; the next attempt is a new mutation', async () => {
    const s = await toConfirming();
    s.actor.send({ type: 'CONFIRM' });
    await s.submit.reject(new ApiError('ECONNABORTED', '', null));
    expect(s.state()).toBe('failed');
    s.actor.send({ type: 'RETRY' });
    await s.submit.reject(new ApiError('ERR_NETWORK', '', null));
    await s.answer.reject(new ApiError(3007, 'key wrong', null));
    expect(s.state()).toBe('failed');
    expect(s.context().error).toEqual({ code: 3007, msg: 'key wrong' });
    s.actor.send({ type: 'RETRY' });
    const ids = s.submit.calls.map((c) => c.mutationId);
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(3);
  });

  it('cancelling the confirmation returns to the form as typed', async () => {
    const s = await toConfirming();
    s.actor.send({ type: 'CANCEL' });
    expect(s.state()).toBe('editing');
    expect(s.context().form).toMatchObject(GOOD);
  });

  it('reads the review verdict for its record from the feed', () => {
    // As parsed from a server's JSON: the shape is the machine's to check.
    const feed = (data: unknown) => ({ type: 'withdrawal', data }) as FeedMessage;
    expect(reviewResultOf(feed({ id: 'w1', status: 'success' }), 'w1')).toEqual({
      type: 'REVIEW_RESULT',
      status: 'success',
    });
    expect(reviewResultOf(feed({ id: 'w1', status: 'rejected' }), 'w1')?.status).toBe('rejected');
    expect(reviewResultOf(feed({ id: 'w1', status: 'pending' }), 'w1')).toBeNull();
    expect(reviewResultOf(feed({ id: 'w2', status: 'success' }), 'w1')).toBeNull();
    expect(
      reviewResultOf({ type: 'deposit', data: { memberId: 'm1', id: 'w1', status: 'success' } }, 'w1'),
    ).toBeNull();
  });

  it('round-trips a persisted snapshot', async () => {
    const s = await toConfirming();
    s.actor.send({ type: 'CONFIRM' });
    await s.submit.resolve(RECORD);
    const persisted = JSON.parse(JSON.stringify(s.actor.getPersistedSnapshot()));
    const restored = createActor(withdrawalMachine, { snapshot: persisted, input: {} }).start();
    expect(restored.getSnapshot().value).toBe('awaitingReview');
    expect(restored.getSnapshot().context).toEqual(s.context());
    restored.send({ type: 'REVIEW_RESULT', status: 'success' });
    expect(restored.getSnapshot().value).toBe('success');
  });

  const valid: FieldErrors = {};
  const events = (): Array<{ type: string; [field: string]: unknown }> => [
    { type: 'EDIT', patch: { amount: '11' } },
    { type: 'SUBMIT' },
    { type: 'CONFIRM' },
    { type: 'CANCEL' },
    { type: 'RETRY' },
    { type: 'ONLINE' },
    { type: 'OFFLINE' },
    { type: 'REVIEW_RESULT', status: 'success' },
    { type: 'REVIEW_RESULT', status: 'rejected' },
    { type: 'xstate.done.actor.validate', output: valid },
    { type: 'xstate.done.actor.validate', output: { key: 'keyTooShort' } },
    { type: 'xstate.error.actor.validate', error: new Error('validator bug') },
    { type: 'xstate.done.actor.submit', output: RECORD },
    { type: 'xstate.error.actor.submit', error: new ApiError(3007, '', null) },
    { type: 'xstate.error.actor.submit', error: new ApiError('ERR_NETWORK', '', null) },
    { type: 'xstate.done.actor.answer', output: RECORD },
    { type: 'xstate.error.actor.answer', error: new ApiError(3007, '', null) },
  ];

  it('generated paths reach every state and transition, and replay on a live actor', async () => {
    const serialize = (snapshot: AnyMachineSnapshot) =>
      JSON.stringify([snapshot.value, (snapshot.context as WithdrawalContext).online]);
    const coverage = machineCoverage(withdrawalMachine, {
      events: () => events() as WithdrawalEvent[],
      serialize,
      input: {},
    });
    expect(coverage.unvisitedStates).toEqual([]);
    expect(coverage.unvisitedTransitions).toEqual([]);
    for (const path of coverage.paths) {
      const validate = controlled<FieldErrors, { form: WithdrawalForm; minimum: string | null }>();
      const submit = controlled<WithdrawalRecord, SubmitInput>();
      const answer = controlled<WithdrawalRecord, { mutationId: string }>();
      const actor = createActor(
        withdrawalMachine.provide({
          actors: { validate: validate.logic, submit: submit.logic, answer: answer.logic },
        }),
        { input: {} },
      ).start();
      for (const event of path.events as Array<{ type: string; output?: unknown; error?: unknown }>) {
        const [, kind, , id] = event.type.split('.');
        const effect =
          id === 'validate' ? validate : id === 'submit' ? submit : id === 'answer' ? answer : undefined;
        if (effect && kind === 'done') await effect.resolve(event.output as never);
        else if (effect && kind === 'error') await effect.reject(event.error);
        else actor.send(event as WithdrawalEvent);
        await flush();
      }
      expect(serialize(actor.getSnapshot())).toBe(path.target);
    }
  });

  it('never awaits review without a record nor keeps the key after acceptance (property)', () => {
    const [initial] = initialTransition(withdrawalMachine, {});
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...events()), { maxLength: 40 }), (sequence) => {
        let snapshot: AnyMachineSnapshot = initial;
        for (const event of sequence) {
          [snapshot] = transition(withdrawalMachine, snapshot as never, event as WithdrawalEvent);
          const context = snapshot.context as WithdrawalContext;
          if (['awaitingReview', 'success', 'rejected'].includes(snapshot.value as string)) {
            expect(context.record).not.toBeNull();
            expect(context.form.key).toBe('');
          }
          if (snapshot.value === 'failed') expect(context.error).not.toBeNull();
          if (snapshot.value === 'waiting') expect(context.mutationId).not.toBeNull();
        }
      }),
      { numRuns: 300 },
    );
  });
});
