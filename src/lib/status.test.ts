import { describe, expect, it } from 'vitest';
import enUS from '../../locales/en-US/translation.json';
import { STATUS_KEYS, statusKey, statusLabel } from './status';

describe('record status labels (SPEC.md §4)', () => {
  it('has a translation for every label', () => {
    const labels = enUS.status as Record<string, string>;
    for (const key of Object.values(STATUS_KEYS)) expect(labels[key.slice('status.'.length)]).toBeTruthy();
    expect(Object.keys(STATUS_KEYS)).toHaveLength(21);
  });
  it.each(['under review', 'under_review', 'underReview', 'Under Review'])(
    'reads %j as under review',
    (s) => {
      expect(statusKey(s)).toBe('status.underReview');
    },
  );
  it('passes an unknown status through untranslated', () => {
    expect(statusLabel('mystery', (k) => `t:${k}`)).toBe('mystery');
    expect(statusLabel('success', (k) => `t:${k}`)).toBe('t:status.success');
  });
});
