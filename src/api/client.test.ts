import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BodyOf } from '../../engine/index';
import { ApiError } from './api-error';
import { createClient, unwrap, type ClientDeps } from './client';
import type { Transport, TransportRequest } from './transport';

function setup(answer: (req: TransportRequest) => Promise<{ status: number; body: unknown }>) {
  const requests: TransportRequest[] = [];
  const onError = vi.fn<ClientDeps['onError']>();
  const transport: Transport = {
    request: async (req) => {
      requests.push(req);
      return (await answer(req)) as Awaited<ReturnType<Transport['request']>>;
    },
  };
  const client = createClient({
    transport: () => transport,
    credentials: () => ({ id: '7', token: 'tok' }),
    onError,
  });
  return { client, requests, onError };
}

const ok =
  (data: unknown, code = 0) =>
  async () => ({ status: 200, body: { code, msg: '', data } });

afterEach(() => {
  vi.useRealTimers();
});

describe('API client (SPEC.md §7)', () => {
  it('returns data on code 0 and on code 200', async () => {
    expect(await setup(ok({ a: 1 })).client.call('/api/user/getuser')).toEqual({ a: 1 });
    expect(await setup(ok('x', 200)).client.call('/api/user/getuser')).toBe('x');
  });

  it('sends Authorization and UserId headers by default, with POST', async () => {
    const { client, requests } = setup(ok(null));
    await client.call('/api/index/logout');
    expect(requests[0]).toMatchObject({
      method: 'POST',
      path: '/api/index/logout',
      headers: { Authorization: 'tok', UserId: '7' },
    });
  });

  it('omits the headers when the call opts out, and for login, register, captcha, site config, forgot flows', async () => {
    const { client, requests } = setup(ok(null));
    await client.call('/api/user/getuser', undefined, { auth: false });
    for (const path of [
      '/api/index/login',
      '/api/index/register',
      '/api/index/forget',
      '/api/index/forgetKey',
    ] as const)
      await client.call(path, {} as BodyOf<typeof path>);
    await client.call('/index/index/verify');
    await client.call('/api/site/getsite');
    for (const r of requests) expect(r.headers).toEqual({});
    expect(requests.at(-1)?.method).toBe('GET');
    expect(requests.at(-2)?.method).toBe('GET');
  });

  it('rejects with ApiError {code, msg, data} and reports it with the silent flag', async () => {
    const { client, onError } = setup(async () => ({
      status: 200,
      body: { code: 911, msg: 'awaiting review', data: { id: 3 } },
    }));
    const err = await client
      .call(
        '/api/withdraw/submit',
        { currency: 'USDT', network: 'TRC20', address: 'T', amount: '1', key: '1234' },
        { silent: true },
      )
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ code: 911, msg: 'awaiting review', data: { id: 3 } });
    expect(onError).toHaveBeenCalledWith(err, true);
  });

  it('uses the HTTP status when the body has no envelope', () => {
    expect(() => unwrap({ status: 502, body: null as never })).toThrow(
      expect.objectContaining({ code: 502 }) as Error,
    );
  });

  it('times out after 12 s with ECONNABORTED, even if the transport never answers', async () => {
    vi.useFakeTimers();
    const { client, requests, onError } = setup(() => new Promise(() => undefined));
    const pending = client.call('/api/user/getuser').catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(11_999);
    expect(onError).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(await pending).toMatchObject({ code: 'ECONNABORTED' });
    expect(requests[0]?.signal?.aborted).toBe(true);
  });

  it('maps a transport failure to ERR_NETWORK', async () => {
    const { client } = setup(async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(client.call('/api/user/getuser')).rejects.toMatchObject({ code: 'ERR_NETWORK' });
  });
});
