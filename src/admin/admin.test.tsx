/**
 * The back-office console (issue 12 item 3) against a scripted operator API (server/admin/contract.ts):
 * login with TOTP, the withdrawals queue, maker-checker, reasons, role-based navigation, 401 and 423.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AdminDeposit, AdminWithdrawal } from '../../contract/admin/model';
import { saveSession, TOKEN_KEY } from './api';
import { list, mockServer, operator, renderConsole, withdrawal } from './test-utils';

beforeEach(() => {
  sessionStorage.clear();
  localStorage.clear();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const COUNTS = { pending: 3, sending: 1, success: 40, rejected: 2 };

async function logIn(role: 'reviewer' | 'finance' | 'admin' = 'reviewer') {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Username'), 'bob');
  await user.type(screen.getByLabelText('Password'), 'correct horse battery');
  await user.type(screen.getByLabelText('Authenticator code'), '123456');
  await user.click(screen.getByRole('button', { name: 'Log in' }));
  return { user, role };
}

describe('console login', () => {
  it('logs in with username, password and TOTP, then shows the withdrawals queue with counts', async () => {
    const calls = mockServer((call) => {
      if (call.path === '/api/admin/login')
        return {
          code: 0,
          data: { token: 'tok-1', expiresAt: 1_800_000_000, operator: operator('reviewer') },
        };
      if (call.path === '/api/admin/withdrawals')
        return { code: 0, data: list([withdrawal(), withdrawal({ id: 'w2', amount: '10.5' })], COUNTS, 3) };
      return undefined;
    });
    renderConsole('/');
    const user = userEvent.setup();
    // The code must be six digits before anything is sent.
    await user.type(screen.getByLabelText('Username'), 'bob');
    await user.type(screen.getByLabelText('Password'), 'correct horse battery');
    await user.type(screen.getByLabelText('Authenticator code'), '12a3');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByText('Enter the 6 digits of your authenticator code.')).toBeTruthy();
    expect(calls).toHaveLength(0);
    await user.type(screen.getByLabelText('Authenticator code'), '456');
    await user.click(screen.getByRole('button', { name: 'Log in' }));

    expect(await screen.findByRole('heading', { name: 'Withdrawals' })).toBeTruthy();
    expect(calls[0]).toMatchObject({
      method: 'POST',
      path: '/api/admin/login',
      body: { username: 'bob', password: 'correct horse battery', totp: '123456' },
    });
    const table = await screen.findByRole('table', { name: 'Withdrawals' });
    // Amounts exactly as the server sent them.
    expect(within(table).getByText('25000.000001')).toBeTruthy();
    expect(within(table).getByText('10.5')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Pending 3' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('button', { name: 'Completed 40' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'All 46' })).toBeTruthy();
    const listCall = calls.find((c) => c.path === '/api/admin/withdrawals');
    expect(listCall?.query).toMatchObject({ status: 'pending', page: '1', limit: '20' });
    expect(listCall?.headers['Authorization']).toBe('Bearer tok-1');
    // The token lives in sessionStorage only.
    expect(sessionStorage.getItem(TOKEN_KEY)).toBe('tok-1');
    expect(JSON.stringify({ ...localStorage })).not.toContain('tok-1');
    expect(screen.getByText(/Signed in as bob/)).toBeTruthy();
    expect(screen.getByText('Reviewer')).toBeTruthy();
  });

  it('shows the lockout message on 423 and the server message on other refusals', async () => {
    let attempt = 0;
    mockServer((call) => {
      if (call.path !== '/api/admin/login') return undefined;
      attempt++;
      return attempt === 1
        ? { code: 400, msg: 'Wrong username, password or code' }
        : { code: 423, msg: 'Locked until 12:30 UTC' };
    });
    renderConsole('/');
    const { user } = await logIn();
    expect((await screen.findByRole('alert')).textContent).toBe('Wrong username, password or code');
    await user.type(screen.getByLabelText('Authenticator code'), '654321');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(
      await screen.findByText('Too many failed logins: this account is locked. Locked until 12:30 UTC'),
    ).toBeTruthy();
  });

  it('goes back to the login screen when a call answers 401', async () => {
    saveSession('old', operator('reviewer'));
    mockServer((call) => {
      if (call.path === '/api/admin/me') return { code: 0, data: operator('reviewer') };
      if (call.path === '/api/admin/withdrawals') return { code: 401, msg: 'Session expired' };
      return undefined;
    });
    renderConsole('/withdrawals');
    expect(await screen.findByText('Your session has ended. Log in again.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Log in' })).toBeTruthy();
    expect(sessionStorage.getItem(TOKEN_KEY)).toBeNull();
  });
});

describe('roles', () => {
  function signedIn(role: 'reviewer' | 'finance' | 'admin') {
    saveSession('tok', operator(role));
    mockServer((call) => {
      if (call.path === '/api/admin/me') return { code: 0, data: operator(role) };
      if (call.path === '/api/admin/withdrawals') return { code: 0, data: list([], COUNTS, 0) };
      if (call.path === '/api/admin/deposits') return { code: 0, data: list([], {}, 0) };
      if (call.path === '/api/admin/members') return { code: 0, data: list([], {}, 0) };
      return undefined;
    });
  }

  it('a reviewer sees the review queues but not Operators, Audit log or Settings', async () => {
    signedIn('reviewer');
    renderConsole('/');
    const nav = await screen.findByRole('navigation', { name: 'Console sections' });
    const links = within(nav)
      .getAllByRole('link')
      .map((a) => a.textContent);
    expect(links).toEqual(['Withdrawals', 'Deposits', 'Identity checks', 'Members', 'Solvency', 'Market']);
    expect(within(nav).queryByRole('link', { name: 'Operators' })).toBeNull();
    expect(within(nav).queryByRole('link', { name: 'Audit log' })).toBeNull();
  });

  it('a reviewer who opens /operators directly is told the role does not allow it', async () => {
    signedIn('reviewer');
    renderConsole('/operators');
    expect(await screen.findByText('Your role does not allow this.')).toBeTruthy();
  });

  it('finance sees deposits but not the withdrawal queue; an admin sees everything', async () => {
    signedIn('finance');
    const view = renderConsole('/');
    let nav = await screen.findByRole('navigation', { name: 'Console sections' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(['Deposits', 'Members', 'Solvency', 'Market']);
    view.unmount();
    vi.unstubAllGlobals();
    signedIn('admin');
    renderConsole('/');
    nav = await screen.findByRole('navigation', { name: 'Console sections' });
    expect(within(nav).getAllByRole('link')).toHaveLength(9);
    expect(within(nav).getByRole('link', { name: 'Audit log' })).toBeTruthy();
  });
});

describe('withdrawal decisions', () => {
  function queue(rows: AdminWithdrawal[], onPost: (path: string, body: Record<string, unknown>) => unknown) {
    saveSession('tok', operator('reviewer', 'op-2', 'dave'));
    return mockServer((call) => {
      if (call.path === '/api/admin/me') return { code: 0, data: operator('reviewer', 'op-2', 'dave') };
      if (call.path === '/api/admin/withdrawals') return { code: 0, data: list(rows, COUNTS) };
      if (call.method === 'POST') return { code: 0, data: onPost(call.path, call.body ?? {}) };
      return undefined;
    });
  }

  it('above the threshold, the first approval records "1 of 2" and does not send', async () => {
    const big = withdrawal({ approvalsNeeded: 2 });
    const calls = queue([big], () => ({
      ...big,
      approvals: [{ operatorId: 'op-2', username: 'dave', at: 1_700_000_100 }],
    }));
    renderConsole('/withdrawals');
    const user = userEvent.setup();
    const open = await screen.findByRole('button', { name: 'Approve withdrawal w1' });
    await user.click(open);
    const dialog = screen.getByRole('dialog', { name: 'Approve withdrawal w1' });
    expect(within(dialog).getByText('25000.000001 USDT')).toBeTruthy();
    expect(within(dialog).getByText('24999.000001 USDT')).toBeTruthy();
    expect(within(dialog).getByText('TXYZabc123')).toBeTruthy();
    expect(within(dialog).getByText('TRC20')).toBeTruthy();
    expect(within(dialog).getByText('0 of 2 so far')).toBeTruthy();
    expect(within(dialog).getByText(/Your approval is the first of two/)).toBeTruthy();
    // Focus moved into the dialog.
    expect(dialog.contains(document.activeElement)).toBe(true);
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));

    expect(
      await screen.findByText(
        'Approval recorded (1 of 2). A second operator must approve before it is sent.',
      ),
    ).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({
      path: '/api/admin/withdrawals/approve',
      body: { id: 'w1' },
    });
  });

  it('shows who gave the first approval; the same operator cannot give the second', async () => {
    const firstByAlice = withdrawal({
      approvalsNeeded: 2,
      approvals: [{ operatorId: 'op-9', username: 'alice', at: 1_700_000_100 }],
    });
    const firstByMe = withdrawal({
      id: 'w2',
      approvalsNeeded: 2,
      approvals: [{ operatorId: 'op-2', username: 'dave', at: 1_700_000_100 }],
    });
    queue([firstByAlice, firstByMe], () => ({ ...firstByAlice, status: 'sending' }));
    renderConsole('/withdrawals');
    const user = userEvent.setup();
    expect(await screen.findAllByText('1 of 2')).toHaveLength(2);

    await user.click(screen.getByRole('button', { name: 'Approve withdrawal w1' }));
    let dialog = screen.getByRole('dialog');
    expect(within(dialog).getByText('1 of 2 so far')).toBeTruthy();
    expect(within(dialog).getByText('Approved by: alice')).toBeTruthy();
    expect(within(dialog).getByText(/Approving sends the funds/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Withdrawal w1 approved and handed to the chain gateway.')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Approve withdrawal w2' }));
    dialog = screen.getByRole('dialog');
    expect(within(dialog).getByText(/You gave the first approval/)).toBeTruthy();
    expect((within(dialog).getByRole('button', { name: 'Approve' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
  });

  it('shows the server message when the approval is refused (409)', async () => {
    saveSession('tok', operator('reviewer'));
    mockServer((call) => {
      if (call.path === '/api/admin/me') return { code: 0, data: operator('reviewer') };
      if (call.path === '/api/admin/withdrawals') return { code: 0, data: list([withdrawal()], COUNTS) };
      if (call.path === '/api/admin/withdrawals/approve')
        return { code: 409, msg: 'The withdrawal is already being sent' };
      return undefined;
    });
    renderConsole('/withdrawals');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Approve withdrawal w1' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('The withdrawal is already being sent')).toBeTruthy();
    expect(screen.getByRole('dialog')).toBeTruthy();
  });

  it('reject requires a reason, sends it, and Escape closes the dialog with focus back on the opener', async () => {
    const calls = queue([withdrawal()], () => ({ ...withdrawal(), status: 'rejected' }));
    renderConsole('/withdrawals');
    const user = userEvent.setup();
    const opener = await screen.findByRole('button', { name: 'Reject withdrawal w1' });

    await user.click(opener);
    expect(screen.getByRole('dialog', { name: 'Reject withdrawal w1' })).toBeTruthy();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);

    await user.click(opener);
    const dialog = screen.getByRole('dialog', { name: 'Reject withdrawal w1' });
    expect(within(dialog).getByText('The member will see this reason.')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(within(dialog).getByText('Enter a reason.')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    const reason = within(dialog).getByLabelText('Reason');
    expect(document.activeElement).toBe(reason);
    await user.type(reason, '   ');
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await user.type(reason, 'Address belongs to a sanctioned exchange');
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(await screen.findByText("Withdrawal w1 rejected; the member's funds are released.")).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({
      path: '/api/admin/withdrawals/reject',
      body: { id: 'w1', reason: 'Address belongs to a sanctioned exchange' },
    });
  });

  it('switching the status tab and searching ask the server again from page 1', async () => {
    const calls = queue([withdrawal()], () => null);
    renderConsole('/withdrawals');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Rejected 2' }));
    await waitFor(() =>
      expect(calls.filter((c) => c.path === '/api/admin/withdrawals').at(-1)?.query.status).toBe('rejected'),
    );
    await user.type(screen.getByRole('searchbox'), 'carol');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() =>
      expect(calls.filter((c) => c.path === '/api/admin/withdrawals').at(-1)?.query).toMatchObject({
        status: 'rejected',
        q: 'carol',
        page: '1',
      }),
    );
  });
});

describe('deposit credits (maker-checker)', () => {
  const deposit = (over: Partial<AdminDeposit> = {}): AdminDeposit => ({
    id: 'd1',
    memberId: '7',
    username: 'cara',
    network: 'TRC20',
    amount: '1000',
    txid: 'ab'.repeat(32),
    proofUrl: null,
    status: 'pending',
    createdAt: 1_700_000_000,
    reason: null,
    approvalsNeeded: 2,
    approvals: [],
    ...over,
  });

  it('above the threshold the first credit records "1 of 2"; the same operator cannot give the second', async () => {
    const big = deposit();
    const mineFirst = deposit({
      id: 'd2',
      approvals: [{ operatorId: 'op-2', username: 'fay', at: 1_700_000_100 }],
    });
    saveSession('tok', operator('finance', 'op-2', 'fay'));
    const calls = mockServer((call) => {
      if (call.path === '/api/admin/me') return { code: 0, data: operator('finance', 'op-2', 'fay') };
      if (call.path === '/api/admin/deposits')
        return { code: 0, data: list([big, mineFirst], { pending: 2, success: 0, rejected: 0 }) };
      if (call.path === '/api/admin/deposits/credit')
        return { code: 0, data: { ...big, approvals: mineFirst.approvals } };
      return undefined;
    });
    renderConsole('/deposits');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Credit deposit d1' }));
    let dialog = screen.getByRole('dialog', { name: 'Credit deposit d1' });
    expect(within(dialog).getByText('0 of 2 so far')).toBeTruthy();
    expect(within(dialog).getByText(/two different operators must credit it/)).toBeTruthy();
    expect(within(dialog).getByText(/Your credit is the first of two/)).toBeTruthy();
    await user.type(within(dialog).getByLabelText('Reason'), 'Statement matches');
    await user.click(within(dialog).getByRole('button', { name: 'Credit' }));
    expect(
      await screen.findByText(
        "Credit recorded (1 of 2). A second operator must credit it before the member's balance changes.",
      ),
    ).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({
      path: '/api/admin/deposits/credit',
      body: { id: 'd1', reason: 'Statement matches' },
    });

    await user.click(screen.getByRole('button', { name: 'Credit deposit d2' }));
    dialog = screen.getByRole('dialog', { name: 'Credit deposit d2' });
    expect(within(dialog).getByText('Approved by: fay')).toBeTruthy();
    expect(within(dialog).getByText(/You gave the first credit/)).toBeTruthy();
    expect((within(dialog).getByRole('button', { name: 'Credit' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
