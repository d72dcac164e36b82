import { describe, expect, it } from 'vitest';
import { harness, signUp, user } from '../../tests/engine/harness';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

function form(bytes: Uint8Array<ArrayBuffer>, type: string, name = 'id.png'): FormData {
  const f = new FormData();
  f.append('file', new Blob([bytes], { type }), name);
  return f;
}

describe('uploads and identity verification (docs/RULES.md A10, A11)', () => {
  it('A10 an image is kept and served back by its relative URL to its owner only; others get 404', async () => {
    const h = await harness();
    const alice = await signUp(h, 'alice');
    const bob = await signUp(h, 'bob');
    const r = await h.call('/api/user/uploads', form(PNG, 'image/png'), alice);
    expect(r.code).toBe(0);
    const url = r.data.url;
    expect(url).toMatch(/^\/uploads\/1-[0-9a-f]{16}$/);
    const served = await h.getRaw(url, alice);
    expect(served.data).toEqual({
      name: 'id.png',
      type: 'image/png',
      size: PNG.length,
      dataUrl: expect.stringMatching(/^data:image\/png;base64,iVBORw0KGgo/),
    });
    // Another member and no session at all: the same answer as an id that does not exist.
    for (const other of [bob, undefined]) {
      const refused = await h.getRaw(url, other);
      expect(refused).toMatchObject({ code: 404, data: null });
      expect(refused.msg).toBe((await h.getRaw('/uploads/1-0000000000000000', alice)).msg);
    }
    expect((await h.getRaw('/uploads/1-0000000000000000', alice)).code).toBe(404);
    expect(
      (await h.call('/api/Recharges/uploads', { file: new Blob([PNG], { type: 'image/png' }) }, alice)).code,
    ).toBe(0);
  });

  it('A10 uploads need a session, a file, an allowed type by content, and at most 5 MiB', async () => {
    const h = await harness({ config: { uploadMaxBytes: 64 } });
    const alice = await signUp(h, 'alice');
    expect((await h.call('/api/user/uploads', form(PNG, 'image/png'))).code).toBe(401);
    expect((await h.call('/api/user/uploads', new FormData(), alice)).code).toBe(400);
    expect((await h.call('/api/user/uploads', { file: 'text' }, alice)).code).toBe(400);
    const svg = new TextEncoder().encode('<svg onload="alert(1)"/>');
    expect((await h.call('/api/user/uploads', form(svg, 'image/png'), alice)).code).toBe(400);
    expect((await h.call('/api/user/uploads', form(PNG, 'image/jpeg'), alice)).code).toBe(400);
    expect(
      (await h.call('/api/user/uploads', form(new Uint8Array(65).fill(0x89), 'image/png'), alice)).code,
    ).toBe(400);
    expect((await h.call('/api/user/uploads', form(new Uint8Array(0), 'image/png'), alice)).code).toBe(400);
  });

  it('A10 a member has an upload quota; another member is not affected', async () => {
    const h = await harness({ config: { uploadQuotaBytes: 2 * PNG.length } });
    const alice = await signUp(h, 'alice');
    const bob = await signUp(h, 'bob');
    expect((await h.call('/api/user/uploads', form(PNG, 'image/png'), alice)).code).toBe(0);
    expect((await h.call('/api/Recharges/uploads', form(PNG, 'image/png'), alice)).code).toBe(0);
    const over = await h.call('/api/user/uploads', form(PNG, 'image/png'), alice);
    expect(over.code).toBe(400);
    expect(over.msg).toMatch(/exceed/);
    expect((await h.call('/api/user/uploads', form(PNG, 'image/png'), bob)).code).toBe(0);
  });

  it('A11 cert goes under review, then the simulated reviewer passes it; a second submission is 403', async () => {
    const h = await harness();
    const alice = await signUp(h, 'alice');
    const bob = await signUp(h, 'bob');
    const up = async (s: typeof alice) =>
      (await h.call('/api/user/uploads', form(PNG, 'image/png'), s)).data.url;
    const front = await up(alice);
    const back = await up(alice);
    const bobs = await up(bob);
    const cert = { realName: 'Alice Liddell', idNumber: 'AB1234567', frontImage: front, backImage: back };
    expect((await h.call('/api/user/cert', { ...cert, realName: ' ' }, alice)).code).toBe(402);
    expect((await h.call('/api/user/cert', { ...cert, idNumber: '1' }, alice)).code).toBe(402);
    expect((await h.call('/api/user/cert', { ...cert, backImage: bobs }, alice)).code).toBe(402);
    const r = await h.call('/api/user/cert', cert, alice);
    expect(r.data).toMatchObject({
      status: 'under review',
      idNumber: '*****4567',
      realName: 'Alice Liddell',
    });
    expect(await user(h, alice)).toMatchObject({ realNameStatus: 'under review' });
    expect((await h.call('/api/user/cert', cert, alice)).code).toBe(403);
    h.clock.advance(59_000);
    await h.engine.settle();
    expect(await user(h, alice)).toMatchObject({ realNameStatus: 'under review' });
    h.clock.advance(1_000);
    await h.engine.settle();
    expect(await user(h, alice)).toMatchObject({ realNameStatus: 'passed' });
    expect((await h.call('/api/user/cert', cert, alice)).code).toBe(403);
  });
});
