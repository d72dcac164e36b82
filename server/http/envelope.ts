/**
 * The member API's answers (API.md "Envelope"): HTTP 200 with `{ code, msg, data }`, serialised through
 * one response schema. A refused or failed request gets a catalogue code, never the request echoed back,
 * a 500 or a stack trace.
 */
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import type { EngineResponse } from '../../engine/index';

/** The envelope's JSON Schema, the response schema of every engine route (fast-json-stringify). */
export const ENVELOPE_SCHEMA = {
  type: 'object',
  properties: { code: { type: 'integer' }, msg: { type: 'string' }, data: {} },
  required: ['code', 'msg', 'data'],
  additionalProperties: false,
} as const;

/** A request refused before the engine: answered as the envelope `{ code, msg }`. */
export class Refusal extends Error {
  constructor(
    readonly envelopeCode: number,
    message: string,
  ) {
    super(message);
  }
}

export function envelope(code: number, msg: string, data: unknown = null): EngineResponse {
  return { status: 200, body: { code, msg, data } };
}

/** Replies that answered a refusal or a failure (envelope code not 0): logged at info (request-log.ts). */
export const refusedReplies = new WeakSet<FastifyReply>();
/** The envelope code each reply answered (server/http/request-metrics.ts counts refusals by code). */
export const replyCodes = new WeakMap<FastifyReply, number>();

/** Sends `response` through the route's envelope schema, never cached. */
export function sendEnvelope(reply: FastifyReply, response: EngineResponse): FastifyReply {
  if (response.body.code !== 0) refusedReplies.add(reply);
  replyCodes.set(reply, response.body.code);
  return reply
    .code(response.status)
    .type('application/json; charset=utf-8')
    .header('Cache-Control', 'no-store')
    .send(response.body);
}

/** A route schema's refusal, worded like the engine's zod refusals (field names only, no values). */
function validationMessage(issues: NonNullable<FastifyError['validation']>): string {
  const parts = issues.slice(0, 3).map((issue) => {
    const params = issue.params as { additionalProperty?: unknown; missingProperty?: unknown };
    const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
    if (issue.keyword === 'additionalProperties')
      return `unknown field "${String(params.additionalProperty).slice(0, 80)}"`;
    if (issue.keyword === 'required') {
      const missing = String(params.missingProperty).slice(0, 80);
      return `${field ? `${field}.` : ''}${missing}: is required`;
    }
    return field
      ? `${field.slice(0, 80)}: ${issue.message ?? 'is invalid'}`
      : (issue.message ?? 'is invalid');
  });
  return `Invalid request: ${parts.join('; ')}`;
}

/** The envelope for a refused or failed request: catalogue codes only. */
export function errorEnvelope(error: FastifyError | Refusal, bodyLimit: number): EngineResponse {
  if (error instanceof Refusal) return envelope(error.envelopeCode, error.message);
  // A body refused by its route's schema (generated from the engine's zod schema): the engine's 400.
  if (error.validation) return envelope(400, validationMessage(error.validation));
  const status = error.statusCode ?? 500;
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || status === 413)
    return envelope(413, `The request body is larger than ${Math.floor(bodyLimit / 1024)} KiB`);
  if (status === 429) return envelope(429, 'Too many requests: wait a minute and try again');
  if (status === 503) return envelope(503, 'The server is unavailable: try again in a moment');
  if (status === 415) return envelope(400, 'The request body must be JSON or multipart/form-data');
  if (status >= 400 && status < 500) return envelope(400, 'Malformed request');
  return envelope(500, 'Server exception');
}

/**
 * The one error handler and the not-found handler of the member API: every refusal and failure is an
 * envelope (a 500 is logged, never shown); preflights (OPTIONS) get 204.
 */
export const envelopeErrors = fp<{ bodyLimit: number }>(
  async (app: FastifyInstance, { bodyLimit }) => {
    app.setErrorHandler((error: FastifyError | Refusal, request, reply) => {
      if (request.method === 'OPTIONS') return reply.code(204).send();
      const answer = errorEnvelope(error, bodyLimit);
      if (answer.body.code === 500) request.log.error({ err: error }, 'request failed');
      // The rest of an oversized body, or of a body whose reading was cut short (an upload refused while it
      // streamed), is not read: close the connection once the answer is out. A body nobody started to read
      // (an upload refused before its first byte) is discarded by Node, and the connection stays usable.
      const cutShort = !request.raw.complete && request.raw.readableFlowing !== null;
      if (answer.body.code === 413 || cutShort) void reply.header('Connection', 'close');
      return sendEnvelope(reply, answer);
    });
    app.setNotFoundHandler((request, reply) =>
      // A preflight from an origin that is not allowed: answered, but with no grant.
      request.method === 'OPTIONS'
        ? reply.code(204).send()
        : sendEnvelope(reply, envelope(404, 'Resource not found')),
    );
  },
  { name: 'strata-envelope-errors' },
);
