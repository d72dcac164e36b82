/**
 * The second-factor step of a security form (changing the password or the key, the forgot flows; docs/SPEC.md
 * §10): the code field is shown when the member is known to have two-factor authentication on (`known`, the
 * device's copy of the security overview) or once the server asked for it (6101: a logged-out forgot flow, or
 * a stale overview). A member without two-factor authentication sends the form exactly as before. The code
 * lives in this form's memory only (never the device's storage); a code the server refuses (wrong, locked,
 * already used, a passkey that failed) is shown on the field and the change is not made.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Failure } from '../machines/failure';
import { SECOND_FACTOR_REQUIRED, type SecondFactor } from '../lib/security';
import { failureText } from './failure-text';
import { secondFactorError, secondFactorProblem } from './SecondFactorField';

/** The refusals that belong to the code (or passkey) itself: 6102 wrong, 6103 locked, 6104 used, 6110/6111. */
const FACTOR_REFUSALS = new Set<number | string>([6102, 6103, 6104, 6110, 6111]);

export interface SecondFactorInput {
  /** Whether the code field is shown. */
  shown: boolean;
  code: string;
  error: string | undefined;
  onCode: (value: string) => void;
  /** The fields to send: `{}` when no code is asked; null (the field's error set) when it is empty or malformed. */
  factor: () => SecondFactor | null;
  /** Takes a refused call; true when the refusal was the second factor's (it is then shown on the field). */
  refused: (failure: Failure) => boolean;
  /** Forgets the code (after the change went through). */
  clear: () => void;
  /** Forgets the code and the server's asking too (another account was chosen). */
  reset: () => void;
}

export function useSecondFactorInput(known: boolean): SecondFactorInput {
  const { t } = useTranslation();
  const [asked, setAsked] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const shown = known || asked;

  return {
    shown,
    code,
    error,
    onCode: (value) => {
      setCode(value);
      setError(undefined);
    },
    factor: (): SecondFactor | null => {
      if (!shown) return {};
      const problem = secondFactorProblem(code);
      if (problem) {
        setError(secondFactorError(problem, t));
        return null;
      }
      return { code: code.replace(/\s+/g, '') };
    },
    refused: (failure) => {
      if (failure.code === SECOND_FACTOR_REQUIRED) {
        setAsked(true);
        setCode('');
        setError(t('security.codeRequired'));
        return true;
      }
      if (!FACTOR_REFUSALS.has(failure.code)) return false;
      // A code is good once: a refused one is cleared, and the refusal worded on the field.
      setCode('');
      setError(failureText(failure, t));
      return true;
    },
    clear: () => {
      setCode('');
      setError(undefined);
    },
    reset: () => {
      setAsked(false);
      setCode('');
      setError(undefined);
    },
  };
}
