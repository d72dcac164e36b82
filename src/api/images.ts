/**
 * SPEC.md §7: relative image paths resolve against the API host, with a default image as fallback. The
 * default is an inline SVG so it works offline and needs no request.
 */
import { apiBase } from './config';

export const DEFAULT_IMAGE =
  'data:image/svg+xml,' +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="8" fill="#8a94a6" opacity=".25"/><path d="M14 46l12-14 9 10 6-7 9 11z" fill="#8a94a6"/><circle cx="42" cy="22" r="5" fill="#8a94a6"/></svg>',
  );

/** Absolute (http, https, data, blob, protocol-relative) paths pass through; empty ones get the default. */
export function resolveImage(path: string | null | undefined, base: string = apiBase()): string {
  const value = path?.trim();
  if (!value) return DEFAULT_IMAGE;
  if (/^(https?:|data:|blob:|\/\/)/i.test(value)) return value;
  try {
    return new URL(value, `${base}/`).href;
  } catch {
    return DEFAULT_IMAGE;
  }
}
