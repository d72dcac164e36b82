/**
 * The confirmation of a key-gated action (withdraw, buy VIP): what is about to happen, and the security
 * key (SPEC.md §5: at least 4 characters) checked before it is sent. Focus starts on the key field.
 */
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Field } from './Field';
import { FormDialog } from './FormDialog';

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

  function submit() {
    if (key === '') setError(t('wallet.keyRequired'));
    else if ([...key].length < KEY_MIN) setError(t('wallet.keyTooShort', { min: KEY_MIN }));
    else onConfirm(key);
  }

  return (
    <FormDialog title={title} submitLabel={confirmLabel} onClose={onClose} onSubmit={submit} busy={busy}>
      {() => (
        <>
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
        </>
      )}
    </FormDialog>
  );
}
