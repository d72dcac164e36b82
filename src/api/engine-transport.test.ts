import { describe, expect, it, vi } from 'vitest';
import { createEngineTransport, type EngineCalls } from './engine-transport';

function fakeEngine(): EngineCalls & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    handle: async (req) => {
      calls.push(`handle ${req.path}`);
      return { status: 200, body: { code: 0, msg: '', data: req.body ?? null } };
    },
    settle: async () => {
      calls.push('settle');
    },
  };
}

describe('in-process transport (demo mode)', () => {
  it('settles due jobs, then hands the request to engine.handle without the abort signal', async () => {
    const engine = fakeEngine();
    const handle = vi.spyOn(engine, 'handle');
    const transport = createEngineTransport(async () => engine);
    const res = await transport.request({
      method: 'POST',
      path: '/api/user/getuser',
      headers: { UserId: '1' },
      body: { a: 1 },
      signal: new AbortController().signal,
    });
    expect(res.body.data).toEqual({ a: 1 });
    expect(engine.calls).toEqual(['settle', 'handle /api/user/getuser']);
    expect(handle.mock.calls[0]?.[0]).toEqual({
      method: 'POST',
      path: '/api/user/getuser',
      headers: { UserId: '1' },
      body: { a: 1 },
    });
  });

  it('answers from the real engine entry through the default loader', async () => {
    const transport = createEngineTransport();
    const res = await transport.request({ method: 'GET', path: '/api/site/getsite', headers: {} });
    expect(res.status).toBe(200);
    expect(typeof res.body.code).toBe('number');
  });
});
