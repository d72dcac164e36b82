/**
 * Which contract paths a device may queue and replay through /api/sync/push: the member's own mutating
 * calls. Everything else is refused per mutation: reads (nothing to replay), sessions and sign-up (login,
 * logout, register, captcha, forgot flows: they are not "the member's" calls), uploads (multipart bodies do
 * not travel inside JSON), demo-only tools, and sync itself (no nesting). A path added to the engine later
 * is refused until it is listed here: replaying something by accident is worse than refusing it.
 */
import { normalisePath } from '../router';
import { SYNCABLE_PATHS } from './paths';

export { SYNCABLE_PATHS };

/** A predicate over mutation names; `extra` paths let tests replay a test-only domain's calls too. */
export function syncable(extra: readonly string[] = []): (name: string) => boolean {
  const paths = new Set<string>([...SYNCABLE_PATHS, ...extra].map(normalisePath));
  return (name) => paths.has(normalisePath(name));
}

/** Mutations per push (rule Y5): bounds the time one push holds the serial queue (~0.1 s on memory). */
export const MAX_PUSH = 500;
