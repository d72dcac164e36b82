/** The Export CSV button saves every row of the current filter, fetched page by page, amounts exact. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { saveSession } from './api';
import { list, mockServer, operator, renderConsole, withdrawal } from './test-utils';

beforeEach(() => sessionStorage.clear());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function readBlob(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsText(blob);
  });
}

describe('CSV export of a queue', () => {
  it('exports all pages of the current status filter with proper quoting', async () => {
    saveSession('tok', operator('reviewer'));
    // 120 pending rows: the export asks page 1 and page 2 at the largest page size.
    const rows = Array.from({ length: 120 }, (_, i) =>
      withdrawal({
        id: `w${i + 1}`,
        username: i === 0 ? 'Smith, "JJ"' : `m${i}`,
        amount: i === 0 ? '0.000001' : '123456789.123456',
      }),
    );
    const calls = mockServer((call) => {
      if (call.path === '/api/admin/me') return { code: 0, data: operator('reviewer') };
      if (call.path !== '/api/admin/withdrawals') return undefined;
      const page = Number(call.query.page);
      const limit = Number(call.query.limit);
      return {
        code: 0,
        data: { ...list(rows.slice((page - 1) * limit, page * limit), {}, 120), page, limit },
      };
    });
    const blobs: Blob[] = [];
    vi.stubGlobal(
      'URL',
      Object.assign(URL, {
        createObjectURL: (b: Blob) => (blobs.push(b), 'blob:x'),
        revokeObjectURL: () => undefined,
      }),
    );
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    renderConsole('/withdrawals');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(blobs).toHaveLength(1));
    expect(click).toHaveBeenCalledTimes(1);

    const exports = calls.filter((c) => c.path === '/api/admin/withdrawals' && c.query.limit === '100');
    expect(exports.map((c) => c.query)).toEqual([
      { status: 'pending', page: '1', limit: '100' },
      { status: 'pending', page: '2', limit: '100' },
    ]);
    const text = (await readBlob(blobs[0] as Blob)).replace(/^\uFEFF/, '');
    const lines = text.split('\r\n');
    expect(lines[0]).toBe(
      'id,member_id,username,network,address,amount,fee,received,status,created_at,finished_at,tx_hash,reason,approvals_needed,approved_by,sending_since,broadcast_hash',
    );
    expect(lines[1]).toBe(
      'w1,m1,"Smith, ""JJ""",TRC20,TXYZabc123,0.000001,1.000000,24999.000001,pending,2023-11-14T22:13:20.000Z,,,,1,,,',
    );
    expect(lines).toHaveLength(122);
    expect(lines[120]).toContain(',123456789.123456,');
  });
});
