/**
 * The two order buttons of the contract and option forms: the submit button goes up (long), the other down
 * (short). Both are disabled while an order is being sent.
 */
import type { ReactNode } from 'react';

export interface UpDownActionsProps {
  busy: boolean;
  up: ReactNode;
  down: ReactNode;
  onDown: (form: HTMLFormElement | null) => void;
}

export function UpDownActions({ busy, up, down, onDown }: UpDownActionsProps) {
  return (
    <div className="trade-actions">
      <button type="submit" className="button button-up" disabled={busy}>
        {up}
      </button>
      <button
        type="button"
        className="button button-down"
        disabled={busy}
        onClick={(e) => onDown(e.currentTarget.form)}
      >
        {down}
      </button>
    </div>
  );
}
