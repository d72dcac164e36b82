/**
 * The second factor of a gated action (docs/SPEC.md §10): the authenticator app's code or a recovery code,
 * or, when the member has a passkey, "Use a passkey" (the browser asks for the fingerprint, face or PIN and
 * the answer is handed to `onPasskey`, which sends the action at once). Shown only to a member with two-factor
 * authentication on; a member without it sees the form as it always was.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PasskeyAnswer } from '../../engine/index';
import { isApiError } from '../api/api-error';
import { passkeyCancelled, passkeyFor, type PasskeyAction } from '../lib/security';
import { Field } from './Field';

export interface SecondFactorFieldProps {
  /** What the passkey's challenge is asked for. */
  action: PasskeyAction;
  code: string;
  onCode: (code: string) => void;
  /** The member has a passkey: offer it instead of the code. */
  passkeys?: boolean;
  onPasskey?: (answer: PasskeyAnswer) => void;
  error?: string | undefined;
  disabled?: boolean;
  /** Moves focus into the code field when shown (a dialog's or a login step's first field). */
  autoFocus?: boolean;
}

/** Authenticator codes are 6 digits; recovery codes four groups of four. Spaces apps show are dropped. */
export function secondFactorProblem(code: string): 'required' | 'shape' | null {
  const value = code.replace(/\s+/g, '');
  if (!value) return 'required';
  if (/^\d{6}$/.test(value) || /^[A-Za-z0-9]{4}(-?[A-Za-z0-9]{4}){3}$/.test(value)) return null;
  return 'shape';
}

export function SecondFactorField({
  action,
  code,
  onCode,
  passkeys = false,
  onPasskey,
  error,
  disabled,
  autoFocus,
}: SecondFactorFieldProps) {
  const { t } = useTranslation();
  const [asking, setAsking] = useState(false);
  const [failed, setFailed] = useState(false);

  async function askPasskey() {
    if (!onPasskey) return;
    setAsking(true);
    setFailed(false);
    try {
      onPasskey(await passkeyFor(action));
    } catch (failure) {
      // A refused call is presented by the API client; a dismissed prompt needs no message.
      if (!isApiError(failure) && !passkeyCancelled(failure)) setFailed(true);
    } finally {
      setAsking(false);
    }
  }

  return (
    <div className="second-factor">
      <Field
        label={t('security.codeLabel')}
        name="code"
        autoComplete="one-time-code"
        spellCheck={false}
        dir="ltr"
        value={code}
        error={error}
        hint={t('security.codeHint')}
        disabled={disabled}
        autoFocus={autoFocus}
        onChange={(e) => onCode(e.target.value)}
      />
      {passkeys && onPasskey && (
        <button
          type="button"
          className="button block"
          disabled={disabled || asking}
          onClick={() => void askPasskey()}
        >
          {asking ? t('security.passkeyAsking') : t('security.usePasskey')}
        </button>
      )}
      {failed && (
        <p className="form-error" role="alert">
          {t('security.passkeyFailed')}
        </p>
      )}
    </div>
  );
}

/** The translated message of a code field's problem, for the field's error. */
export function secondFactorError(
  problem: 'required' | 'shape' | null,
  t: (key: string) => string,
): string | undefined {
  if (problem === 'required') return t('security.codeRequired');
  if (problem === 'shape') return t('security.codeShape');
  return undefined;
}
