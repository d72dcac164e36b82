/**
 * zod helpers shared by every handler. Bodies are strict objects (an unknown field is a 400), amounts are
 * decimal strings parsed to exact micro-units, list params follow API.md (page >= 1, limit 1-100).
 */
import { z } from 'zod';
import type { ListResult } from './contract';
import { tryParseAmount } from './money';

/** A strict request body: unknown fields are refused rather than silently ignored. */
export function body<T extends z.core.$ZodLooseShape>(shape: T) {
  return z.strictObject(shape);
}

export const emptyBody = z.strictObject({});

/** A wire amount ("12.5") -> bigint micro-units; refuses numbers, negatives, exponents, > 6 decimals. */
export const amount = z.unknown().transform((value, ctx) => {
  const parsed = tryParseAmount(value);
  if (!parsed.ok) {
    ctx.addIssue({ code: 'custom', message: `amount ${parsed.reason}` });
    return z.NEVER;
  }
  return parsed.value;
});

/** A required text field that may be empty (so the handler answers the catalogue's "empty" code). */
export const text = (max = 200) => z.string().max(max, `must be at most ${max} characters`);
export const optionalText = (max = 200) => text(max).optional();

const intLike = z.union([
  z.number().int(),
  z
    .string()
    .regex(/^\d{1,9}$/)
    .transform(Number),
]);

export const listShape = {
  page: intLike.pipe(z.number().int().min(1).max(1_000_000)).optional(),
  limit: intLike.pipe(z.number().int().min(1).max(100)).optional(),
};

export const listBody = z.strictObject(listShape);

export type ListInput = { page?: number | undefined; limit?: number | undefined };

/** Pages through items that are already newest first. */
export function paginate<T>(items: readonly T[], input: ListInput): ListResult<T> {
  const page = input.page ?? 1;
  const limit = input.limit ?? 20;
  return { list: items.slice((page - 1) * limit, page * limit), total: items.length, page, limit };
}

/** Newest first by numeric counter id. */
export function newestFirst<T extends { id: string }>(rows: readonly T[]): T[] {
  return [...rows].sort((a, b) => Number(b.id) - Number(a.id));
}

/** One readable line from zod issues: "amount: amount must be ...; unknown field "foo"". */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => {
      if (issue.code === 'unrecognized_keys')
        return `unknown field ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
      const path = issue.path.map(String).join('.');
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join('; ');
}
