/**
 * Every body that is not multipart is read as JSON and checked before the engine is asked: JSON only (any
 * declared type, so a mislabelled body gets the same catalogue answer as a malformed one), an object, nested
 * at most MAX_JSON_DEPTH deep, no NUL characters, no prototype keys.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Refusal } from './envelope';

/** JSON nested deeper than this is refused before it is parsed by the engine (no contract body nests 4). */
export const MAX_JSON_DEPTH = 16;

/** Depth, NUL characters and prototype keys of a parsed JSON value, checked without recursion. */
function checkJsonValue(value: unknown): void {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop() as [unknown, number];
    if (typeof v === 'string') {
      if (v.includes('\u0000')) throw new Refusal(400, 'The request contains a NUL character');
      continue;
    }
    if (typeof v !== 'object' || v === null) continue;
    if (depth > MAX_JSON_DEPTH) throw new Refusal(400, 'The request body is nested too deeply');
    if (Array.isArray(v)) {
      for (const item of v) stack.push([item, depth + 1]);
      continue;
    }
    for (const [key, item] of Object.entries(v)) {
      if (key === '__proto__' || key === 'constructor' || key.includes('\u0000'))
        throw new Refusal(400, 'The request body has a forbidden key');
      stack.push([item, depth + 1]);
    }
  }
}

/** A body's text as the engine's input: undefined when empty, else a checked JSON object. */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Refusal(400, 'Malformed JSON in the request body');
  }
  checkJsonValue(value);
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Refusal(400, 'The request body must be a JSON object');
  return value;
}

/** Replaces Fastify's parsers with parseJsonBody for every content type (multipart: uploads.ts). */
export const jsonBodies = fp(
  async (app: FastifyInstance) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => {
      try {
        done(null, parseJsonBody(body as string));
      } catch (error) {
        done(error as Error, undefined);
      }
    });
  },
  { name: 'strata-json-bodies' },
);
