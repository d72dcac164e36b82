/** The member-facing text of a failed call, as the error catalogue words it (SPEC.md §8). */
import type { TFunction } from 'i18next';
import { describeError, errorText } from '../api/errors';
import type { Failure } from '../machines/failure';

export function failureText(failure: Failure, t: TFunction): string {
  return errorText(describeError(failure.code, failure.msg), (key, params) => t(key, { ...params }));
}
