/** Renders the console with its en-US strings, a memory router and a scripted fetch (tests only). */
import { render, type RenderResult } from '@testing-library/react';
import type { ReactNode } from 'react';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { MemoryRouter } from 'react-router-dom';
import { vi } from 'vitest';
import type { AdminWithdrawal, Operator } from '../../contract/admin/model';
import enUS from '../../locales/en-US/admin.json';
import { AdminApp } from './App';
import { ADMIN_NS } from './i18n';
import { SessionProvider } from './session';

export const en = enUS;

const i18n = i18next.createInstance();
void i18n.use(initReactI18next).init({
  lng: 'en-US',
  ns: [ADMIN_NS],
  defaultNS: ADMIN_NS,
  resources: { 'en-US': { [ADMIN_NS]: enUS } },
  interpolation: { escapeValue: false },
  initAsync: false,
});

/** One piece of the console with its en-US strings (no router, no session provider). */
export function renderWithStrings(ui: ReactNode): RenderResult {
  return render(<I18nextProvider i18n={i18n}>{ui}</I18nextProvider>);
}

export function renderConsole(path = '/'): RenderResult {
  return render(
    <I18nextProvider i18n={i18n}>
      <SessionProvider>
        <MemoryRouter initialEntries={[path]}>
          <AdminApp />
        </MemoryRouter>
      </SessionProvider>
    </I18nextProvider>,
  );
}

export interface Call {
  method: string;
  path: string;
  query: Record<string, string>;
  body: Record<string, unknown> | undefined;
  headers: Record<string, string>;
}

type Handler = (call: Call) => { code: number; msg?: string; data?: unknown } | undefined;

/** Stubs fetch: each call goes to `handler` by method and path; unknown routes answer 404. */
export function mockServer(handler: Handler): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const url = new URL(input, 'http://localhost');
      const call: Call = {
        method: init.method ?? 'GET',
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        body: typeof init.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : undefined,
        headers: (init.headers ?? {}) as Record<string, string>,
      };
      calls.push(call);
      const answer = handler(call) ?? { code: 404, msg: 'Resource not found' };
      return {
        ok: true,
        status: 200,
        json: async () => ({ code: answer.code, msg: answer.msg ?? '', data: answer.data ?? null }),
      } as Response;
    }),
  );
  return calls;
}

export function operator(role: Operator['role'], id = 'op-1', username = 'bob'): Operator {
  return { id, username, role, disabled: false, createdAt: 1_700_000_000, lastLoginAt: null };
}

export function withdrawal(overrides: Partial<AdminWithdrawal> = {}): AdminWithdrawal {
  return {
    id: 'w1',
    memberId: 'm1',
    username: 'carol',
    network: 'TRC20',
    address: 'TXYZabc123',
    amount: '25000.000001',
    fee: '1.000000',
    received: '24999.000001',
    status: 'pending',
    createdAt: 1_700_000_000,
    finishedAt: null,
    txHash: null,
    sendingSince: null,
    broadcast: null,
    reason: null,
    approvalsNeeded: 1,
    approvals: [],
    ...overrides,
  };
}

export function list<T>(rows: T[], counts: Record<string, number> = {}, total = rows.length) {
  return { list: rows, total, page: 1, limit: 20, counts };
}
