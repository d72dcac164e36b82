import { afterEach, describe, expect, it, vi } from 'vitest';
import { createHttpTransport } from './http-transport';

afterEach(() => {
  vi.unstubAllGlobals();
});

function stubFetch(impl: (url: string, init: RequestInit) => Promise<Response>) {
  const fetchMock = vi.fn(impl);
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const transport = createHttpTransport(() => 'https://api.example.com');

describe('HTTP transport (live mode)', () => {
  it('posts JSON to VITE_API_BASE + path with the given headers', async () => {
    const fetchMock = stubFetch(async () => Response.json({ code: 0, msg: '', data: { ok: true } }));
    const res = await transport.request({
      method: 'POST',
      path: '/api/user/getuser',
      headers: { Authorization: 'tok', UserId: '7', Skipped: undefined },
      body: { a: '1.5' },
    });
    expect(res).toEqual({ status: 200, body: { code: 0, msg: '', data: { ok: true } } });
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('https://api.example.com/api/user/getuser');
    expect(init?.body).toBe('{"a":"1.5"}');
    expect(init?.headers).toEqual({ Authorization: 'tok', UserId: '7', 'Content-Type': 'application/json' });
  });

  it('sends multipart bodies as they are, letting the browser set the boundary', async () => {
    const fetchMock = stubFetch(async () => Response.json({ code: 0, msg: '', data: { url: '/u/a.png' } }));
    const form = new FormData();
    form.append('file', new Blob(['x']), 'a.png');
    await transport.request({ method: 'POST', path: '/api/user/uploads', body: form });
    const init = fetchMock.mock.calls[0]?.[1];
    expect(init?.body).toBe(form);
    expect(init?.headers).toEqual({});
  });

  it('gives a null body for a non-JSON answer, so the client falls back to the HTTP status', async () => {
    stubFetch(async () => new Response('<html>Bad gateway</html>', { status: 502 }));
    expect(await transport.request({ method: 'GET', path: '/api/site/getsite' })).toEqual({
      status: 502,
      body: null,
    });
  });

  it('maps an abort to ECONNABORTED, a failed fetch to ERR_NETWORK, and offline to ERR_OFFLINE', async () => {
    stubFetch(async () => {
      throw new TypeError('Failed to fetch');
    });
    const controller = new AbortController();
    controller.abort();
    await expect(
      transport.request({ method: 'POST', path: '/x', signal: controller.signal }),
    ).rejects.toMatchObject({ code: 'ECONNABORTED' });
    await expect(transport.request({ method: 'POST', path: '/x' })).rejects.toMatchObject({
      code: 'ERR_NETWORK',
    });
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    await expect(transport.request({ method: 'POST', path: '/x' })).rejects.toMatchObject({
      code: 'ERR_OFFLINE',
    });
  });
});
