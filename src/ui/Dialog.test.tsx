import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { renderWithI18n } from '../pwa/test-i18n';
import { Dialog } from './Dialog';

afterEach(cleanup);

function Page() {
  const [open, setOpen] = useState(false);
  return (
    <div>
      <header>
        <button type="button" onClick={() => setOpen(true)}>
          Open
        </button>
      </header>
      <main>
        <a href="/elsewhere">A link behind</a>
        {open && (
          <Dialog title="Confirm" onClose={() => setOpen(false)}>
            <p>Sure?</p>
          </Dialog>
        )}
      </main>
      <div className="toaster" role="status" aria-live="polite" />
    </div>
  );
}

describe('Dialog (issue 15: the page behind an open dialog is inert)', () => {
  it('makes everything outside the dialog inert but the live region, and restores it on close', async () => {
    renderWithI18n(<Page />);
    const opener = screen.getByRole('button', { name: 'Open' });
    await userEvent.click(opener);
    const dialog = screen.getByRole('dialog', { name: 'Confirm' });
    expect(dialog.closest('[inert]')).toBeNull();
    expect(opener.closest('header')?.hasAttribute('inert')).toBe(true);
    expect(screen.getByText('A link behind').hasAttribute('inert')).toBe(true);
    expect(screen.getByRole('status').hasAttribute('inert')).toBe(false);
    expect(dialog.contains(document.activeElement)).toBe(true);

    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.querySelectorAll('[inert]')).toHaveLength(0);
    expect(document.activeElement).toBe(opener);
  });
});
