/**
 * useForm keeps its errors as i18n keys (they stay right when the language changes); a form binds its
 * fields through this to show them in the member's language.
 */
import type { TFunction } from 'i18next';
import type { BoundField } from './useForm';

export function translatedFields<N extends string>(
  bind: (name: N) => BoundField,
  t: TFunction,
): (name: N) => BoundField {
  return (name) => {
    const bound = bind(name);
    return { ...bound, error: bound.error && t(bound.error) };
  };
}
