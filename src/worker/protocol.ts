/**
 * What crosses the worker boundary (structured clone, no functions except Comlink proxies). The main thread
 * sees these calls through Comlink.wrap; src/worker/expose.ts implements them on an EngineHost.
 */
import type { ProxyMarked } from 'comlink';
import type { EngineResponse, FeedMessage } from '../../engine/index';

/** A file as plain data: structured clone copies (or transfers) an ArrayBuffer in every browser and in Node. */
export interface FilePart {
  name: string;
  type: string;
  bytes: ArrayBuffer;
}

/**
 * FormData does not survive structured clone, so the transport flattens an upload to its entries with each
 * file as a FilePart, and the worker rebuilds the FormData the engine's upload routes read: `body.get('file')`
 * is a File with its name, type and bytes intact.
 */
export interface MultipartBody {
  kind: 'multipart';
  entries: Array<[name: string, value: string | FilePart]>;
}

export interface WireRequest {
  method: string;
  path: string;
  headers?: Record<string, string | undefined>;
  /** Plain JSON, or MultipartBody for uploads. */
  body?: unknown;
}

export type FeedListener = (message: FeedMessage) => void;

/**
 * What crosses from the worker to the page: the feed messages the engine emitted in one turn of the worker's
 * event loop, in order. One postMessage per turn instead of one per message (a market tick is dozens of them),
 * so the page's main thread decodes and dispatches one batch.
 */
export type FeedBatchListener = (messages: FeedMessage[]) => void;

export interface WorkerApi {
  handle(request: WireRequest): Promise<EngineResponse>;
  /** The listener arrives as a Comlink proxy; the answer is a proxied unsubscribe. */
  subscribe(listener: FeedBatchListener & ProxyMarked): (() => void) & ProxyMarked;
  now(): Promise<number>;
  advance(ms: number): Promise<number>;
  reset(): Promise<void>;
}

export function isMultipartBody(body: unknown): body is MultipartBody {
  return (
    typeof body === 'object' &&
    body !== null &&
    (body as { kind?: unknown }).kind === 'multipart' &&
    Array.isArray((body as { entries?: unknown }).entries)
  );
}

export async function toMultipartBody(form: FormData): Promise<MultipartBody> {
  const entries: MultipartBody['entries'] = [];
  for (const [name, value] of form.entries()) {
    entries.push([
      name,
      typeof value === 'string'
        ? value
        : { name: value.name, type: value.type, bytes: await value.arrayBuffer() },
    ]);
  }
  return { kind: 'multipart', entries };
}

export function fromMultipartBody(body: MultipartBody): FormData {
  const form = new FormData();
  for (const [name, value] of body.entries) {
    if (typeof value === 'string') form.append(name, value);
    else form.append(name, new File([value.bytes], value.name, { type: value.type }));
  }
  return form;
}

/** The buffers of an upload, handed to the worker rather than copied. */
export function transferablesOf(body: MultipartBody): ArrayBuffer[] {
  return body.entries.flatMap(([, value]) => (typeof value === 'string' ? [] : [value.bytes]));
}
