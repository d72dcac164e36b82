/**
 * Withdrawals stuck "sending" in the console: the queue shows whether a broadcast is recorded (and its hash);
 * one without a recorded broadcast has "Release to review", a dialog that requires a reason (keyboard only
 * here) and posts POST /api/admin/withdrawals/release. The audit screen reads the system actor's rows.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AdminWithdrawal, AuditEntry } from '../../contract/admin/model';
import { saveSession } from './api';
import { list, mockServer, operator, renderConsole, withdrawal } from './test-utils';

beforeEach(() => {
  sessionStorage.clear();
  localStorage.clear();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const HASH = 'ab'.repeat(32);

function sendingQueue(
  rows: AdminWithdrawal[],
  onPost: (path: string, body: Record<string, unknown>) => { code: number; msg?: string; data?: unknown },
) {
  saveSession('tok', operator('reviewer', 'op-2', 'dave'));
  return mockServer((call) => {
    if (call.path === '/api/admin/me') return { code: 0, data: operator('reviewer', 'op-2', 'dave') };
    if (call.path === '/api/admin/withdrawals')
      return { code: 0, data: list(rows, { pending: 0, sending: rows.length, success: 0, rejected: 0 }) };
    if (call.method === 'POST') return onPost(call.path, call.body ?? {});
    return undefined;
  });
}

describe('withdrawals stuck sending', () => {
  const bare = withdrawal({ id: 'w1', status: 'sending', sendingSince: 1_700_000_100, amount: '40' });
  const hashed = withdrawal({
    id: 'w2',
    status: 'sending',
    sendingSince: 1_700_000_200,
    broadcast: { txHash: HASH, nonce: 7, at: 1_700_000_201 },
  });

  it('shows the recorded hash, and offers release only without one', async () => {
    sendingQueue([bare, hashed], () => ({ code: 0, data: null }));
    renderConsole('/withdrawals?status=sending');
    expect(await screen.findByText(HASH)).toBeTruthy();
    expect(screen.getByText('Broadcast recorded (the reconciler decides):')).toBeTruthy();
    expect(screen.getByText('No broadcast recorded')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Release withdrawal w1 to review' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Release withdrawal w2 to review' })).toBeNull();
    // A withdrawal being sent is neither approved nor rejected from here.
    expect(screen.queryByRole('button', { name: 'Approve withdrawal w1' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Reject withdrawal w1' })).toBeNull();
  });

  it('release needs a reason, works from the keyboard, and posts id and reason', async () => {
    const calls = sendingQueue([bare], (_path, body) => ({
      code: 0,
      data: { ...bare, status: 'pending', sendingSince: null, ...body },
    }));
    renderConsole('/withdrawals?status=sending');
    const user = userEvent.setup();
    const opener = await screen.findByRole('button', { name: 'Release withdrawal w1 to review' });
    opener.focus();
    await user.keyboard('{Enter}');
    const dialog = screen.getByRole('dialog', { name: 'Release withdrawal w1 to review' });
    expect(dialog.contains(document.activeElement)).toBe(true);
    expect(within(dialog).getByText(/nothing was broadcast/)).toBeTruthy();
    expect(within(dialog).getByText(/40 USDT stays frozen on carol's balance/)).toBeTruthy();
    expect(within(dialog).getByText("Check the signer's journal for withdrawal w1 first.")).toBeTruthy();
    expect(within(dialog).getByText('Recorded in the audit log with your name.')).toBeTruthy();

    // Escape closes it, focus back on the opener.
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);

    await user.keyboard('{Enter}');
    const again = screen.getByRole('dialog', { name: 'Release withdrawal w1 to review' });
    await user.click(within(again).getByRole('button', { name: 'Release to review' }));
    expect(within(again).getByText('Enter a reason.')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    const reason = within(again).getByLabelText('Reason');
    expect(document.activeElement).toBe(reason);
    await user.type(reason, 'Server restarted after the claim; no signature in the journal');
    await user.tab();
    await user.tab();
    expect(document.activeElement).toBe(within(again).getByRole('button', { name: 'Release to review' }));
    await user.keyboard('{Enter}');
    expect(await screen.findByText('Withdrawal w1 is back in review.')).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({
      path: '/api/admin/withdrawals/release',
      body: { id: 'w1', reason: 'Server restarted after the claim; no signature in the journal' },
    });
  });

  it("shows the server's refusal (a hash recorded meanwhile) in the dialog", async () => {
    sendingQueue([bare], () => ({
      code: 409,
      msg: 'A signed transaction is recorded for this withdrawal: only the reconciler can release it',
    }));
    renderConsole('/withdrawals?status=sending');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Release withdrawal w1 to review' }));
    const dialog = screen.getByRole('dialog');
    await user.type(within(dialog).getByLabelText('Reason'), 'stuck');
    await user.click(within(dialog).getByRole('button', { name: 'Release to review' }));
    expect(await within(dialog).findByText(/only the reconciler can release it/)).toBeTruthy();
  });
});

describe('audit log: the system actor', () => {
  it("reads the reconciler's rows as System, with the action's label", async () => {
    saveSession('tok', operator('admin'));
    const row: AuditEntry = {
      id: '9',
      at: 1_700_000_300,
      operatorId: null,
      username: 'system',
      role: 'system',
      action: 'withdrawal.reconcile_complete',
      target: 'withdrawal:w2',
      before: { status: 'sending', txHash: HASH },
      after: { status: 'success', txHash: HASH },
      reason: 'mined, 25 confirmations',
      ip: '',
    };
    mockServer((call) => {
      if (call.path === '/api/admin/me') return { code: 0, data: operator('admin') };
      if (call.path === '/api/admin/audit') return { code: 0, data: list([row]) };
      return undefined;
    });
    renderConsole('/audit');
    expect(await screen.findByText('Completed by the reconciler')).toBeTruthy();
    expect(screen.getByText('withdrawal.reconcile_complete')).toBeTruthy();
    expect(screen.getByText('System')).toBeTruthy();
    expect(screen.getByText('Automatic, no operator')).toBeTruthy();
    expect(screen.getByText('mined, 25 confirmations')).toBeTruthy();
  });
});
