/**
 * The confirmation of a security change for a member with two-factor authentication on (turning it off,
 * new recovery codes, a passkey added or removed, the anti-phishing code): what is about to happen, and the
 * authenticator code, a recovery code or a passkey. `onConfirm` sends the change and answers whether it
 * went through (a wrong code keeps the dialog open, with the refusal under the field). Without two-factor
 * authentication (`required` false) it is a plain confirmation and confirms with no second factor.
 */
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Failure } from '../machines/failure';
import type { PasskeyAction, SecondFactor } from '../lib/security';
import { ConfirmDialog } from './ConfirmDialog';
import { FailureAlert } from './FailureAlert';
import { SecondFactorField, secondFactorError, secondFactorProblem } from './SecondFactorField';

export interface SecondFactorDialogProps {
  title: string;
  children?: ReactNode;
  confirmLabel: string;
  action: PasskeyAction;
  passkeys: boolean;
  /** The member has two-factor authentication on: ask for the code (else a plain confirmation). */
  required?: boolean;
  busy?: boolean;
  failure?: Failure | null;
  onConfirm: (factor: SecondFactor) => void;
  onClose: () => void;
}

export function SecondFactorDialog({
  title,
  children,
  confirmLabel,
  action,
  passkeys,
  required = true,
  busy = false,
  failure = null,
  onConfirm,
  onClose,
}: SecondFactorDialogProps) {
  const { t } = useTranslation();
  const formId = useId();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!required) return onConfirm({});
    const problem = secondFactorProblem(code);
    if (problem) return setError(secondFactorError(problem, t));
    onConfirm({ code: code.replace(/\s+/g, '') });
  }

  return (
    <ConfirmDialog title={title} confirmLabel={confirmLabel} form={formId} busy={busy} onClose={onClose}>
      <form id={formId} className="form" onSubmit={submit} noValidate>
        {children}
        {required && (
          <SecondFactorField
            action={action}
            code={code}
            onCode={(value) => {
              setCode(value);
              setError(undefined);
            }}
            passkeys={passkeys}
            onPasskey={(answer) => onConfirm({ passkey: answer })}
            error={error}
            disabled={busy}
          />
        )}
        <FailureAlert failure={failure} />
      </form>
    </ConfirmDialog>
  );
}
