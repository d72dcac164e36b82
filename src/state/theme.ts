/**
 * Light, dark or follow-system, stored in localStorage ('strata.theme') and applied as data-theme on <html>.
 * index.html runs the same resolution inline before first paint; this module keeps it current afterwards.
 */
import { useSyncExternalStore } from 'react';
import { STORAGE_KEYS, readString, writeString } from '../lib/storage';

export type ThemeChoice = 'light' | 'dark' | 'system';
export const THEME_CHOICES: readonly ThemeChoice[] = ['light', 'dark', 'system'];

const listeners = new Set<() => void>();

export function storedTheme(): ThemeChoice {
  const v = readString(STORAGE_KEYS.theme);
  return v === 'light' || v === 'dark' ? v : 'system';
}

function systemPrefersDark(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches;
}

export function resolveTheme(choice: ThemeChoice): 'light' | 'dark' {
  if (choice === 'system') return systemPrefersDark() ? 'dark' : 'light';
  return choice;
}

export function applyTheme(choice: ThemeChoice = storedTheme()): void {
  document.documentElement.dataset.theme = resolveTheme(choice);
}

export function setTheme(choice: ThemeChoice): void {
  writeString(STORAGE_KEYS.theme, choice);
  applyTheme(choice);
  for (const l of listeners) l();
}

/** Follows the system setting while the choice is 'system'. */
export function watchSystemTheme(): () => void {
  if (typeof matchMedia !== 'function') return () => undefined;
  const query = matchMedia('(prefers-color-scheme: dark)');
  const onChange = () => {
    if (storedTheme() === 'system') applyTheme('system');
  };
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useThemeChoice(): ThemeChoice {
  return useSyncExternalStore(subscribe, storedTheme, storedTheme);
}
