/**
 * A dialog holding one form: the Dialog (overlay, title, focus trap, Escape) with Cancel and a submit button.
 * Submitting marks the form attempted (the fields show their errors) and sends nothing while `invalid`;
 * otherwise the submit button stays disabled until `onSubmit` settles (or while the caller says `busy`). A
 * refusal is shown under the form with `renderFailure`; without it the caller's API layer tells the member
 * (the app's toasts). On success the caller usually closes the dialog.
 */
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from './Dialog';

export interface FormDialogProps {
  title: string;
  submitLabel: string;
  onClose: () => void;
  /** A field breaks a rule: submitting only shows the errors. */
  invalid?: boolean;
  onSubmit: () => Promise<void> | void;
  /** Pending held by the caller, for a send that outlives `onSubmit` (the key dialogs' flows). */
  busy?: boolean;
  /** How a refusal reads under the form (e.g. the console's alert). */
  renderFailure?: (error: unknown) => ReactNode;
  /** The form's content; `attempted` once the member has tried to submit. */
  children: (attempted: boolean) => ReactNode;
}

export function FormDialog({
  title,
  submitLabel,
  onClose,
  invalid = false,
  onSubmit,
  busy = false,
  renderFailure,
  children,
}: FormDialogProps) {
  const { t } = useTranslation();
  const formId = `${useId()}-form`;
  const [attempted, setAttempted] = useState(false);
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<{ error: unknown } | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setAttempted(true);
    if (invalid) return;
    setPending(true);
    setFailure(null);
    try {
      await onSubmit();
    } catch (error) {
      setFailure({ error });
    } finally {
      setPending(false);
    }
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
          <button type="submit" form={formId} className="button primary" disabled={pending || busy}>
            {submitLabel}
          </button>
        </>
      }
    >
      <form id={formId} className="form" onSubmit={(e) => void submit(e)} noValidate>
        {children(attempted)}
      </form>
      {failure && renderFailure?.(failure.error)}
    </Dialog>
  );
}
