import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { renderWithI18n } from '../../pwa/test-i18n';
import { NO_TRIGGERS, TriggerFields, type Triggers } from './TriggerFields';

afterEach(cleanup);

function Form({ side }: { side: 'long' | 'short' }) {
  const [value, setValue] = useState<Triggers>(NO_TRIGGERS);
  const [attempted, setAttempted] = useState(false);
  return (
    <>
      <TriggerFields
        symbol="BTC/USDT"
        side={side}
        mark="60000"
        value={value}
        onChange={setValue}
        showErrors={attempted}
      />
      <button type="button" onClick={() => setAttempted(true)}>
        Submit
      </button>
    </>
  );
}

describe('TriggerFields (K17: the order form and the TP/SL dialog share them)', () => {
  it("says a long's take-profit below the mark and stop-loss above it are on the wrong side, naming the mark", async () => {
    renderWithI18n(<Form side="long" />);
    await userEvent.type(screen.getByLabelText(/^Take-profit/), '59000');
    await userEvent.type(screen.getByLabelText(/^Stop-loss/), '61000');
    expect(screen.queryByRole('alert')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(screen.getByLabelText(/^Take-profit/).getAttribute('aria-invalid')).toBe('true');
    const alerts = screen.getAllByRole('alert').map((a) => a.textContent);
    expect(alerts).toEqual([
      expect.stringMatching(/^Take-profit is on the wrong side of the mark price \(60,000(\.0+)?\)$/),
      expect.stringMatching(/^Stop-loss is on the wrong side of the mark price \(60,000(\.0+)?\)$/),
    ]);
  });

  it("a short's take-profit below the mark and stop-loss above it pass; empty is none", async () => {
    renderWithI18n(<Form side="short" />);
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(screen.queryByRole('alert')).toBeNull();
    await userEvent.type(screen.getByLabelText(/^Take-profit/), '59000');
    await userEvent.type(screen.getByLabelText(/^Stop-loss/), '61000');
    expect(screen.queryByRole('alert')).toBeNull();
    await userEvent.clear(screen.getByLabelText(/^Stop-loss/));
    await userEvent.type(screen.getByLabelText(/^Stop-loss/), '59500');
    expect(screen.getByRole('alert').textContent).toMatch(/^Stop-loss is on the wrong side/);
  });
});
