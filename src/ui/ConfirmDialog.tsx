/**
 * A dialog that asks before an action: Cancel and the action's button under the content. While `busy` the
 * dialog stays open (Cancel, Escape and the backdrop do nothing) and the action is disabled. The action calls
 * `onConfirm`, or submits the dialog's form when `form` names it.
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from './Dialog';

export interface ConfirmDialogProps {
  title: string;
  confirmLabel: string;
  onConfirm?: () => void;
  /** The id of a form in the content that the action submits. */
  form?: string;
  onClose: () => void;
  busy?: boolean;
  /** The action cannot be taken yet (a code not typed, a connection needed). */
  disabled?: boolean;
  /** `danger` for an action that gives something up. */
  tone?: 'primary' | 'danger';
  children: ReactNode;
}

export function ConfirmDialog({
  title,
  confirmLabel,
  onConfirm,
  form,
  onClose,
  busy = false,
  disabled = false,
  tone = 'primary',
  children,
}: ConfirmDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog
      title={title}
      onClose={() => !busy && onClose()}
      actions={
        <>
          <button type="button" className="button" disabled={busy} onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button
            type={form ? 'submit' : 'button'}
            form={form}
            className={`button ${tone}`}
            disabled={busy || disabled}
            onClick={onConfirm}
          >
            {confirmLabel}
          </button>
        </>
      }
    >
      {children}
    </Dialog>
  );
}
