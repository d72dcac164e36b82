/**
 * Operator-only images (payment proofs, identity documents): fetched from the operator route with the
 * operator's token, shown from a blob: URL that is revoked when the image goes away; a refusal, which the
 * server answers as its JSON envelope, shows the error text and never a broken image.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { readToken, saveSession } from './api';
import { AuthImage } from './components';
import { en, operator, renderWithStrings } from './test-utils';

const URL_OF_PROOF = '/api/admin/uploads/7-0123456789abcdef';

beforeEach(() => sessionStorage.clear());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function stubObjectUrls() {
  const created: Blob[] = [];
  const revoked: string[] = [];
  vi.stubGlobal(
    'URL',
    Object.assign(URL, {
      createObjectURL: (b: Blob) => `blob:image-${created.push(b)}`,
      revokeObjectURL: (u: string) => void revoked.push(u),
    }),
  );
  return { created, revoked };
}

describe('AuthImage', () => {
  it('fetches with the operator token, shows the blob and revokes it on unmount', async () => {
    saveSession('tok-1', operator('reviewer'));
    const { created, revoked } = stubObjectUrls();
    const fetchMock = vi.fn(
      async () =>
        ({
          ok: true,
          status: 200,
          headers: new Headers({ 'Content-Type': 'image/png' }),
          blob: async () => new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], { type: 'image/png' }),
        }) as Response,
    );
    vi.stubGlobal('fetch', fetchMock);
    const view = renderWithStrings(<AuthImage url={URL_OF_PROOF} alt="Proof of deposit 7" />);
    const img = await screen.findByRole('img', { name: 'Proof of deposit 7' });
    expect(img.getAttribute('src')).toBe('blob:image-1');
    expect(created).toHaveLength(1);
    const [input, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(input).toMatch(/\/api\/admin\/uploads\/7-0123456789abcdef$/);
    expect(init.headers).toEqual({ Authorization: 'Bearer tok-1' });
    expect(revoked).toEqual([]);
    view.unmount();
    expect(revoked).toEqual(['blob:image-1']);
  });

  it('shows the error text for a refusal answered as an envelope; a 401 ends the session', async () => {
    saveSession('tok-2', operator('finance'));
    const { created } = stubObjectUrls();
    let code = 403;
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          ({
            ok: true,
            status: 200,
            headers: new Headers({ 'Content-Type': 'application/json; charset=utf-8' }),
            json: async () => ({ code, msg: 'refused', data: null }),
            blob: async () => new Blob(['{}'], { type: 'application/json' }),
          }) as Response,
      ),
    );
    renderWithStrings(<AuthImage url={URL_OF_PROOF} alt="Front of the ID" />);
    expect(await screen.findByText(en.common.imageError)).toBeTruthy();
    expect(screen.queryByRole('img')).toBeNull();
    expect(created).toEqual([]);
    expect(readToken()).toBe('tok-2');
    cleanup();

    code = 401;
    renderWithStrings(<AuthImage url={URL_OF_PROOF} alt="Front of the ID" />);
    expect(await screen.findByText(en.common.imageError)).toBeTruthy();
    expect(readToken()).toBeNull();
  });
});
