import { describe, expect, it } from 'vitest';
import { checkLocale, flatten, placeholdersOf } from './locale-check';

const en = {
  a: {
    title: 'Deposit',
    hello: 'Hello, {{name}}',
    brand: 'Strata',
    items_one: '{{count}} item',
    items_other: '{{count}} items',
  },
};

describe('locale check (the report script and the completeness test share it)', () => {
  it('passes a complete translation, accepting extra plural forms of a known key', () => {
    const ru = {
      a: {
        title: 'Пополнение',
        hello: 'Здравствуйте, {{name}}',
        brand: 'Strata',
        items_one: '{{count}} элемент',
        items_few: '{{count}} элемента',
        items_many: '{{count}} элементов',
        items_other: '{{count}} элемента',
      },
    };
    expect(checkLocale('ru-RU', en, ru)).toEqual({
      missing: [],
      extra: [],
      untranslated: [],
      placeholders: [],
    });
  });

  it('reports missing and extra keys, English copies and changed placeholders', () => {
    const bad = { a: { title: 'Deposit', hello: 'Bonjour, {{nom}}', brand: 'Strata', other: 'x' } };
    expect(checkLocale('fr-FR', en, bad)).toEqual({
      missing: ['a.items_one', 'a.items_other'],
      extra: ['a.other'],
      untranslated: ['a.title'],
      placeholders: ['a.hello'],
    });
  });

  it('allows a per-locale exception only in that locale', () => {
    const src = { more: { options: 'Options' } };
    expect(checkLocale('fr-FR', src, src).untranslated).toEqual([]);
    expect(checkLocale('ja-JP', src, src).untranslated).toEqual(['more.options']);
  });

  it('flattens nested keys and reads placeholders', () => {
    expect([...flatten({ x: { y: 'z' } }).keys()]).toEqual(['x.y']);
    expect(placeholdersOf('{{b}} and {{ a }}')).toEqual(['a', 'b']);
  });
});
