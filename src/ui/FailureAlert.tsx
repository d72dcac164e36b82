/** A refused call's catalogue message under a form, announced to screen readers; nothing when all is well. */
import { useTranslation } from 'react-i18next';
import type { Failure } from '../machines/failure';
import { failureText } from './failure-text';

export function FailureAlert({ failure }: { failure: Failure | null }) {
  const { t } = useTranslation();
  if (!failure) return null;
  return (
    <p className="form-error" role="alert">
      {failureText(failure, t)}
    </p>
  );
}
