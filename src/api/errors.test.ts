import { describe, expect, it, vi } from 'vitest';
import enUS from '../../locales/en-US/translation.json';
import {
  describeError,
  presentError,
  SERVER_FIRST_CODES,
  TRANSLATED_CODES,
  type ErrorPresenter,
} from './errors';
import { flatten } from '../i18n/locale-check';

const EN = flatten(enUS);

describe('describeError: every code of SPEC.md §8 as settled in API.md', () => {
  it('401 opens the session-expired dialog', () => {
    expect(describeError(401, 'token expired')).toEqual({ kind: 'session' });
  });

  it('402 shows the server message as is', () => {
    expect(describeError(402, 'Custom server text')).toEqual({ kind: 'text', text: 'Custom server text' });
    expect(describeError(402, '')).toEqual({ kind: 'text', text: '[402]' });
  });

  it('410 inserts the server message into the translated template', () => {
    expect(describeError(410, '10 USDT')).toEqual({
      kind: 'translated',
      key: 'errors.e410',
      params: { msg: '10 USDT' },
    });
    expect(EN.get('errors.e410')).toContain('{{msg}}');
  });

  it.each(SERVER_FIRST_CODES)('%i shows the server message, else the translated default', (code) => {
    expect(describeError(code, 'from server')).toEqual({ kind: 'text', text: 'from server' });
    expect(describeError(code, '  ')).toEqual({ kind: 'translated', key: `errors.e${code}`, params: {} });
    expect(EN.has(`errors.e${code}`)).toBe(true);
  });

  it.each(TRANSLATED_CODES)('%i maps to its own translated message, whatever the server says', (code) => {
    expect(describeError(code, 'server words')).toEqual({
      kind: 'translated',
      key: `errors.e${code}`,
      params: {},
    });
    expect(EN.get(`errors.e${code}`), `en-US errors.e${code}`).toBeTruthy();
  });

  it('lists every catalogue code exactly once', () => {
    const all = [401, 402, 410, ...SERVER_FIRST_CODES, ...TRANSLATED_CODES];
    expect(new Set(all).size).toBe(all.length);
    for (const c of [3000, 3001, 3002, 3003, 3004, 3005, 3006, 3007, 3009, 3010]) expect(all).toContain(c);
  });

  it('accepts numeric codes sent as strings', () => {
    expect(describeError('2016', '')).toEqual({ kind: 'translated', key: 'errors.e2016', params: {} });
  });

  it.each([
    ['ECONNABORTED', 'errors.timeout'],
    [-1, 'errors.timeout'],
    ['ERR_NETWORK', 'errors.network'],
    ['ERR_OFFLINE', 'errors.offline'],
  ])('no response: client code %s maps to %s', (code, key) => {
    expect(describeError(code, '')).toEqual({ kind: 'translated', key, params: {} });
    expect(EN.has(key)).toBe(true);
  });

  it('507 (the device storage is full) shows the translated quota message, whatever the server says', () => {
    expect(describeError(507, 'Storage is full')).toEqual({
      kind: 'translated',
      key: 'pwa.quotaExceeded',
      params: {},
    });
    expect(EN.has('pwa.quotaExceeded')).toBe(true);
  });

  it.each([
    [999, 'Special'],
    [3008, ''],
    [12345, ''],
    ['EWHATEVER', ''],
  ])('any other code %s shows the server message, else the code in brackets', (code, msg) => {
    expect(describeError(code, msg)).toEqual({ kind: 'text', text: msg || `[${code}]` });
  });
});

function fakePresenter(): ErrorPresenter & { toasts: [string, string][]; sessions: number } {
  let open = false;
  let closeFn: (() => void) | undefined;
  const p = {
    toasts: [] as [string, string][],
    sessions: 0,
    t: (key: string, params?: Record<string, string>) => (params?.msg ? `${key}:${params.msg}` : key),
    toast: (text: string, tone: string) => void p.toasts.push([text, tone]),
    sessionExpired: () => {
      if (open) return null;
      open = true;
      p.sessions += 1;
      return new Promise<void>((resolve) => {
        closeFn = () => {
          open = false;
          resolve();
        };
      });
    },
    logout: vi.fn(),
    close: () => closeFn?.(),
  };
  return p;
}

describe('presentError', () => {
  it('911 (withdrawal submitted, awaiting review) is a success: its translated confirmation, never a red error', async () => {
    const p = fakePresenter();
    await presentError(911, 'Withdrawal submitted', p);
    expect(p.toasts).toEqual([['errors.e911', 'success']]);
  });

  it('toasts the translated message unless the call is silent', async () => {
    const p = fakePresenter();
    await presentError(3005, '', p);
    await presentError(3005, '', p, true);
    expect(p.toasts).toEqual([['errors.e3005', 'error']]);
  });

  it('401: one session dialog at a time, then logout and a success-style logged-out toast', async () => {
    const p = fakePresenter();
    const first = presentError(401, '', p);
    const second = presentError(401, '', p, true);
    await second;
    expect(p.sessions).toBe(1);
    expect(p.logout).not.toHaveBeenCalled();
    (p as unknown as { close: () => void }).close();
    await first;
    expect(p.logout).toHaveBeenCalledTimes(1);
    expect(p.toasts).toEqual([['common.loggedOut', 'success']]);
  });
});
