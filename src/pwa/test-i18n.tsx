/** Renders PWA components with the real en-US strings, as the member sees them. */
import { render, type RenderResult } from '@testing-library/react';
import i18next from 'i18next';
import type { ReactElement } from 'react';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import enUS from '../../locales/en-US/translation.json';

const i18n = i18next.createInstance();
void i18n.use(initReactI18next).init({
  lng: 'en-US',
  resources: { 'en-US': { translation: enUS } },
  interpolation: { escapeValue: false },
  initAsync: false,
});

export const en = enUS.pwa;

export function renderWithI18n(ui: ReactElement): RenderResult {
  return render(<I18nextProvider i18n={i18n}>{ui}</I18nextProvider>);
}
