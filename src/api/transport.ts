/**
 * The one seam between the client and whatever answers it (ARCHITECTURE.md: demo and live differ only in
 * the transport). Both transports speak the engine's request/response shape, which is the HTTP contract.
 */
import type { EngineRequest, EngineResponse } from '../../engine/index';

export interface TransportRequest extends EngineRequest {
  /** Aborted when the client's timeout fires; an in-process transport may ignore it. */
  signal?: AbortSignal;
}

export type TransportResponse = EngineResponse;

export interface Transport {
  request(request: TransportRequest): Promise<TransportResponse>;
}

/** Client-side codes for calls that got no answer (SPEC.md §8: mapped like server codes). */
export const CLIENT_CODES = {
  timeout: 'ECONNABORTED',
  network: 'ERR_NETWORK',
  offline: 'ERR_OFFLINE',
} as const;

export type ClientCode = (typeof CLIENT_CODES)[keyof typeof CLIENT_CODES];
