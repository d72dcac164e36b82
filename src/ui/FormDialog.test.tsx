import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { renderWithI18n } from '../pwa/test-i18n';
import { FormDialog } from './FormDialog';

afterEach(cleanup);

function Page({ onSubmit, onClose }: { onSubmit: () => Promise<void>; onClose: () => void }) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  return (
    <div>
      <button type="button" onClick={() => setOpen(true)}>
        Open
      </button>
      {open && (
        <FormDialog
          title="Rename"
          submitLabel="Save"
          onClose={() => {
            onClose();
            setOpen(false);
          }}
          invalid={!name.trim()}
          onSubmit={onSubmit}
          renderFailure={(err) => <p role="alert">{err instanceof Error ? err.message : 'refused'}</p>}
        >
          {(attempted) => (
            <label>
              Name
              <input value={name} onChange={(e) => setName(e.target.value)} />
              {attempted && !name.trim() && <span>Name is required</span>}
            </label>
          )}
        </FormDialog>
      )}
    </div>
  );
}

function deferred() {
  let resolve!: () => void;
  let reject!: (err: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('FormDialog: one shell for the dialogs that hold a form', () => {
  it('moves focus in, closes on Escape and gives focus back to the opener', async () => {
    const onClose = vi.fn();
    renderWithI18n(<Page onSubmit={vi.fn()} onClose={onClose} />);
    const opener = screen.getByRole('button', { name: 'Open' });
    await userEvent.click(opener);
    const dialog = screen.getByRole('dialog', { name: 'Rename' });
    expect(document.activeElement).toBe(screen.getByLabelText('Name'));
    await userEvent.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledOnce();
    expect(dialog.isConnected).toBe(false);
    expect(document.activeElement).toBe(opener);
  });

  it('an invalid form shows its errors and sends nothing', async () => {
    const onSubmit = vi.fn(() => Promise.resolve());
    renderWithI18n(<Page onSubmit={onSubmit} onClose={vi.fn()} />);
    await userEvent.click(screen.getByRole('button', { name: 'Open' }));
    expect(screen.queryByText('Name is required')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText('Name is required')).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('keeps Save disabled while pending; a refusal enables it again and is shown under the form', async () => {
    const first = deferred();
    const onSubmit = vi.fn(() => first.promise);
    renderWithI18n(<Page onSubmit={onSubmit} onClose={vi.fn()} />);
    await userEvent.click(screen.getByRole('button', { name: 'Open' }));
    await userEvent.type(screen.getByLabelText('Name'), 'Ada');
    const save = screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    await userEvent.click(save);
    expect(onSubmit).toHaveBeenCalledOnce();
    expect(save.disabled).toBe(true);
    expect(screen.queryByRole('alert')).toBeNull();

    first.reject(new Error('Name taken'));
    expect((await screen.findByRole('alert')).textContent).toBe('Name taken');
    expect(save.disabled).toBe(false);

    onSubmit.mockImplementation(() => new Promise<void>(() => undefined));
    await userEvent.click(save);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(save.disabled).toBe(true);
  });

  it('Cancel closes without sending', async () => {
    const onSubmit = vi.fn(() => Promise.resolve());
    const onClose = vi.fn();
    renderWithI18n(<Page onSubmit={onSubmit} onClose={onClose} />);
    await userEvent.click(screen.getByRole('button', { name: 'Open' }));
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalledOnce();
    expect(onSubmit).not.toHaveBeenCalled();
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
