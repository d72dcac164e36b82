/** A password input with a show/hide toggle whose state is announced through aria-pressed. */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Field, type FieldProps } from './Field';

export function PasswordField(props: Omit<FieldProps, 'type' | 'addon'>) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  return (
    <Field
      {...props}
      type={visible ? 'text' : 'password'}
      addon={
        <button
          type="button"
          className="toggle-visibility"
          aria-pressed={visible}
          aria-label={t('auth.showSecret', { field: props.label })}
          onClick={() => setVisible((v) => !v)}
        >
          {visible ? t('auth.hide') : t('auth.show')}
        </button>
      }
    />
  );
}
