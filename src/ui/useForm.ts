/**
 * Form state for inline validation before sending: a field shows its error once it was left (blur) or the
 * form was submitted; a submit with errors sends nothing and moves focus to the first invalid field, whose
 * error is then read out. Errors from the server can be pinned on a field until its value changes.
 */
import { useCallback, useMemo, useRef, useState, type ChangeEvent, type FormEvent } from 'react';

export type Errors<T> = Partial<Record<keyof T & string, string>>;

export interface BoundField {
  name: string;
  value: string;
  onChange: (e: ChangeEvent<HTMLInputElement>) => void;
  onBlur: () => void;
  error: string | undefined;
}

export function useForm<T extends Record<string, string>>(initial: T, validate: (values: T) => Errors<T>) {
  const [values, setValues] = useState<T>(initial);
  const [touched, setTouched] = useState<Partial<Record<keyof T, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<Errors<T>>({});
  const formRef = useRef<HTMLFormElement>(null);

  const errors = useMemo(() => ({ ...validate(values), ...serverErrors }), [validate, values, serverErrors]);

  const setValue = useCallback((name: keyof T & string, value: string) => {
    setValues((v) => ({ ...v, [name]: value }));
    setServerErrors((e) => {
      if (!(name in e)) return e;
      const rest = { ...e };
      delete rest[name];
      return rest;
    });
  }, []);

  const shown = (name: keyof T & string): string | undefined =>
    submitted || touched[name] ? errors[name] : undefined;

  const bind = (name: keyof T & string): BoundField => ({
    name,
    value: values[name] ?? '',
    onChange: (e) => setValue(name, e.target.value),
    onBlur: () => setTouched((t) => ({ ...t, [name]: true })),
    error: shown(name),
  });

  const focusFirstInvalid = (names: string[]) => {
    const form = formRef.current;
    if (!form) return;
    const fields = [...form.querySelectorAll<HTMLElement>('[name]')];
    const first = fields.find((el) => names.includes(el.getAttribute('name') ?? ''));
    first?.focus();
  };

  const handleSubmit = (onValid: (values: T) => void) => (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    const invalid = Object.keys(errors).filter((k) => errors[k as keyof T & string]);
    if (invalid.length > 0) {
      focusFirstInvalid(invalid);
      return;
    }
    onValid(values);
  };

  /** Pins a server answer on a field (e.g. 214 on the username) and focuses it. */
  const setServerError = (name: keyof T & string, message: string) => {
    setServerErrors((e) => ({ ...e, [name]: message }));
    setTouched((t) => ({ ...t, [name]: true }));
    requestAnimationFrame(() => focusFirstInvalid([name]));
  };

  const reset = (next: T = initial) => {
    setValues(next);
    setTouched({});
    setSubmitted(false);
    setServerErrors({});
  };

  return { values, setValue, bind, errors, shown, handleSubmit, setServerError, reset, formRef };
}
