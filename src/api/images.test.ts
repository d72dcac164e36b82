import { describe, expect, it } from 'vitest';
import { DEFAULT_IMAGE, resolveImage } from './images';

describe('resolveImage (SPEC.md §7)', () => {
  const base = 'https://api.example.com';
  it('resolves relative paths against the API host', () => {
    expect(resolveImage('/uploads/a.png', base)).toBe('https://api.example.com/uploads/a.png');
    expect(resolveImage('uploads/a.png', base)).toBe('https://api.example.com/uploads/a.png');
  });
  it('keeps absolute, data and blob URLs', () => {
    expect(resolveImage('https://cdn.example.com/x.png', base)).toBe('https://cdn.example.com/x.png');
    expect(resolveImage('data:image/png;base64,AA', base)).toBe('data:image/png;base64,AA');
  });
  it('falls back to the default image when there is no path', () => {
    expect(resolveImage('', base)).toBe(DEFAULT_IMAGE);
    expect(resolveImage(null, base)).toBe(DEFAULT_IMAGE);
  });
});
