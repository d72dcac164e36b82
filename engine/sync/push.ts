/**
 * POST /api/sync/push: replays a device's queued mutations in order, each exactly as the direct call would
 * run it (engine/pipeline.ts), each a unit nested in the push's (a savepoint), the push one commit. A
 * mutation id is applied at most once, ever (Y1); its effects and its answer commit together (Y2); a failure
 * is recorded with its onFailure work (Y3). 401 and 503 are not recorded and are replayed. A mutation that
 * needs a hash leaves the whole push, which runs again with the hash in the memo. docs/DECISIONS.md "Sync",
 * docs/SERVER.md "Hashing pool".
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { z } from 'zod';
import { canonical } from '../canonical';
import type { AuthCtx, Ctx } from '../context';
import { Codes, EngineError, fail } from '../errors';
import { authorise, parseBody } from '../pipeline';
import { handler, normalisePath, Reply, type AnyHandler } from '../router';
import type { Nested } from '../runtime';
import { body } from '../schema';
import { HashNeeded } from '../security/hashing';
import { MAX_PUSH } from './mutations';
import { resultId, syncResults, type SyncResultRow } from './tables';

export interface MutationResult {
  id: string;
  code: number;
  msg: string;
  data: unknown;
}

type Outcome = Omit<MutationResult, 'id'>;

const mutation = z.strictObject({
  id: z.string().regex(/^[\w.:-]{1,100}$/, 'must be 1-100 letters, digits, "_", "-", "." or ":"'),
  name: z.string().min(1).max(200),
  args: z.unknown().optional(),
});

export type PushMutation = z.output<typeof mutation>;

export const pushBody = body({
  clientId: z.string().min(1).max(100),
  mutations: z.array(mutation).max(MAX_PUSH, `at most ${MAX_PUSH} mutations per push`),
});

/**
 * Answers that are never recorded, because nothing was applied: the device keeps such a mutation and replays
 * it later (a lost session: 401; a nested unit that failed outside its handler: 503).
 */
export const NOT_APPLIED_CODE = 503;
const NOT_APPLIED: Outcome = {
  code: NOT_APPLIED_CODE,
  msg: 'Not applied: the server could not save it, send it again',
  data: null,
};

function recordable(outcome: Outcome): boolean {
  return outcome.code !== Codes.unauthorized && outcome.code !== NOT_APPLIED_CODE;
}

function outcomeOf(error: unknown): Outcome {
  if (error instanceof EngineError) return { code: error.code, msg: error.message, data: error.data };
  return { code: Codes.serverError, msg: 'Server exception', data: null };
}

function successOf(value: unknown): Outcome {
  if (value instanceof Reply) return { code: value.code, msg: value.msg, data: value.data };
  return { code: 0, msg: 'ok', data: value ?? null };
}

/**
 * Fields left out of a mutation's fingerprint: passwords, security keys, second-factor codes and passkey
 * answers. A hash of a 4-character key next to the rest of the body could be searched offline; these fields
 * are checked by the call itself.
 */
const SECRET_FIELD = /pass|psw|pwd|key|code|answer|token|secret/i;

/**
 * What identifies a mutation's request (rule Y12): its path (as the router matches it) and its body in
 * canonical JSON without secret fields, hashed.
 */
export function mutationFingerprint(name: string, args: unknown): string {
  const body =
    args && typeof args === 'object' && !Array.isArray(args)
      ? Object.fromEntries(Object.entries(args).filter(([field]) => !SECRET_FIELD.test(field)))
      : args;
  return bytesToHex(sha256(utf8ToBytes(canonical({ name: normalisePath(name), body: body ?? {} }))));
}

interface Replay {
  ctx: AuthCtx;
  isSyncable: (name: string) => boolean;
  nested: Nested;
  clientId: string;
  mutation: PushMutation;
}

function record(r: Replay, ctx: Ctx, outcome: Outcome): void {
  const row: SyncResultRow = {
    id: resultId(r.ctx.member.id, r.mutation.id),
    memberId: r.ctx.member.id,
    mutationId: r.mutation.id,
    clientId: r.clientId,
    name: r.mutation.name,
    fingerprint: mutationFingerprint(r.mutation.name, r.mutation.args),
    ...outcome,
    at: ctx.now,
  };
  ctx.tx.put(syncResults, row);
}

/** A verdict reached without running anything (refused name, invalid args), recorded like any other. */
async function settle(r: Replay, outcome: Outcome): Promise<Outcome> {
  await r.nested.unit(async (ctx) => record(r, ctx, outcome));
  return outcome;
}

async function execute(r: Replay, target: AnyHandler, input: unknown): Promise<Outcome> {
  let thrown: { error: unknown } | undefined;
  try {
    return await r.nested.unit(async (ctx) => {
      // Runs after the rollback, in the same unit as the handler's own onFailure work (a wrong-key count).
      ctx.onFailure(async (after) => {
        if (thrown && recordable(outcomeOf(thrown.error))) record(r, after, outcomeOf(thrown.error));
      });
      // Per mutation, not per push: an earlier mutation in the batch may have ended the session.
      const authorised = await authorise(target, ctx);
      let outcome: Outcome;
      try {
        outcome = successOf(await target.run(authorised, input, {}));
      } catch (error) {
        if (!(error instanceof HashNeeded)) thrown = { error };
        throw error;
      }
      record(r, ctx, outcome);
      return outcome;
    });
  } catch (error) {
    // A hash the handler needs leaves the whole push (rolled back, nothing recorded): it runs again from the
    // start once the hash is computed (engine/runtime.ts outside()).
    if (error instanceof HashNeeded) throw error;
    // The handler did not fail: the session was gone, or the unit failed around it. Nothing was applied.
    if (!thrown) return outcomeOf(error).code === Codes.unauthorized ? outcomeOf(error) : NOT_APPLIED;
    return outcomeOf(error);
  }
}

async function replay(r: Replay): Promise<MutationResult> {
  const { id, name, args } = r.mutation;
  const seen = await r.ctx.tx.get(syncResults, resultId(r.ctx.member.id, id));
  if (seen?.fingerprint !== undefined && seen.fingerprint !== mutationFingerprint(name, args))
    return {
      id,
      code: Codes.idempotencyKeyReused,
      msg: 'This key was already used for a different request: send a new request under a new key',
      data: null,
    };
  if (seen) return { id, code: seen.code, msg: seen.msg, data: seen.data };
  const target = r.isSyncable(name) ? r.nested.handler(name) : undefined;
  if (!target) {
    const known = r.nested.handler(name) !== undefined;
    const outcome = known
      ? {
          code: Codes.denied,
          msg: `${name} cannot be queued: only the member's own changes sync`,
          data: null,
        }
      : { code: Codes.notFound, msg: `Resource not found: ${name}`, data: null };
    return { id, ...(await settle(r, outcome)) };
  }
  // The same decode and parse as a direct call (engine/pipeline.ts): the same 400 and message.
  const parsed = parseBody(target, args);
  if (!parsed.ok) return { id, ...(await settle(r, { code: parsed.code, msg: parsed.msg, data: null })) };
  return { id, ...(await execute(r, target, parsed.input)) };
}

export const pushHandler = (isSyncable: (name: string) => boolean) =>
  handler({
    auth: true,
    body: pushBody,
    run: async (ctx, input) => {
      const nested = ctx.nested;
      if (!nested) throw fail(Codes.serverError, 'Sync needs the engine runtime');
      const results: MutationResult[] = [];
      for (const m of input.mutations) {
        results.push(await replay({ ctx, isSyncable, nested, clientId: input.clientId, mutation: m }));
      }
      return { results };
    },
  });
