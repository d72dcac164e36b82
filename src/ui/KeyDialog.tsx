/**
 * The confirmation of a key-gated action (withdraw, buy VIP): what is about to happen, and the security
 * key (SPEC.md §5: at least 4 characters) checked before it is sent. Focus starts on the key field.
 */
import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from './Dialog';
import { Field } from './Field';

export const KEY_MIN = 4;

export interface KeyDialogProps {
  title: string;
  /** The summary of the action (a detail list). */
  children: ReactNode;
  confirmLabel: string;
  busy?: boolean;
  onConfirm: (key: string) => void;
  onClose: () => void;
}

export function KeyDialog({ title, children, confirmLabel, busy, onConfirm, onClose }: KeyDialogProps) {
  const { t } = useTranslation();
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | undefined>();
  const formId = 'key-dialog-form';

  function submit(e: FormEvent) {
    e.preventDefault();
    if (key === '') return setError(t('wallet.keyRequired'));
    if ([...key].length < KEY_MIN) return setError(t('wallet.keyTooShort', { min: KEY_MIN }));
    onConfirm(key);
  }

  return (
    <Dialog
      title={title}
      onClose={onClose}
      actions={
        <>
          <button type="button" className="button" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" form={formId} className="button primary" disabled={busy}>
            {confirmLabel}
          </button>
        </>
      }
    >
      <form id={formId} className="form" onSubmit={submit} noValidate>
        {children}
        <Field
          label={t('wallet.key')}
          type="password"
          autoComplete="off"
          value={key}
          error={error}
          onChange={(e) => {
            setKey(e.target.value);
            setError(undefined);
          }}
        />
      </form>
    </Dialog>
  );
}
