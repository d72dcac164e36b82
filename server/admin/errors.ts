/**
 * The operator API's one error handler: the contract's codes (contract/admin/routes.ts "Codes"), engine
 * refusals mapped, refusals of the HTTP edge (bodies, limits) as the member API answers them, and nothing
 * else leaks (a 500 is logged, never shown).
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { StorageUnavailableError } from '../../engine/index';
import { isEngineError } from '../../engine/server';
import { BroadcastUncertainError } from '../chain/gateway';
import { envelope, errorEnvelope, Refusal, sendEnvelope } from '../http/envelope';
import { CommitNoteError, isConnectionLoss } from '../sql-store';
import { AdminError } from './db';

function answerOf(error: unknown, request: FastifyRequest, bodyLimit: number) {
  if (error instanceof AdminError) return envelope(error.code, error.message);
  if (error instanceof BroadcastUncertainError)
    return envelope(
      503,
      `The broadcast's outcome is unknown (${error.txHash}): the withdrawal stays "sending" until the chain is checked`,
    );
  if (isEngineError(error)) {
    // The engine's "denied" on a decision means the record's state no longer allows it.
    return envelope(error.code === 403 ? 409 : error.code === 503 ? 503 : 400, error.message);
  }
  if (error instanceof CommitNoteError) {
    request.log.error({ err: error }, 'audit row not written: the decision was rolled back');
    return envelope(503, 'The audit log could not be written: nothing was changed, try again');
  }
  if (error instanceof StorageUnavailableError || isConnectionLoss(error))
    return envelope(503, 'The database is unavailable: nothing was changed, try again');
  // Refused at the edge (a malformed or oversized body, a rate limit): the member API's answers.
  if (error instanceof Refusal || (error as Partial<FastifyError>).statusCode !== undefined) {
    const answer = errorEnvelope(error as FastifyError | Refusal, bodyLimit);
    if (answer.body.code !== 500) return answer;
  }
  request.log.error({ err: error }, 'operator route failed');
  return envelope(500, 'Server exception');
}

export function adminErrorHandler(bodyLimit: number) {
  return (error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    const answer = answerOf(error, request, bodyLimit);
    // The rest of an oversized body is not read: close the connection once the answer is out.
    if (answer.body.code === 413) void reply.header('Connection', 'close');
    return sendEnvelope(reply, answer);
  };
}
