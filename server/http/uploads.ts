/**
 * Uploads (@fastify/multipart): one `file` part of at most 5 MiB, typed by its leading bytes, and a stored
 * upload answered as its bytes. With SQL storage the part streams chunk by chunk into the upload store
 * (server/upload-store.ts), the size enforced as it streams (413), after the IP's attempts (UPLOADS_PER_IP,
 * 429) and the store's bounds (429, 507) admitted it; the engine gets a `StoredUpload`, never the bytes.
 * Memory storage hands the engine the bytes. docs/SERVER.md "HTTP" ("Uploads").
 */
import multipart, { type MultipartFile } from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import fp from 'fastify-plugin';
import type { EngineResponse } from '../../engine/index';
import { StoredUpload } from '../../engine/server';
import { UPLOAD_MAX_BYTES } from '../config';
import { UPLOAD_CHUNK_BYTES, type UploadStore } from '../upload-store';
import { envelope, Refusal } from './envelope';

export const UPLOAD_PATHS = new Set(['/api/user/uploads', '/api/Recharges/uploads']);

export const uploads = fp(
  async (app: FastifyInstance) => {
    await app.register(multipart, {
      limits: {
        fileSize: UPLOAD_MAX_BYTES,
        files: 1,
        fields: 10,
        fieldSize: 1024,
        parts: 12,
        headerPairs: 50,
      },
    });
  },
  { name: 'strata-uploads' },
);

const SIGNATURES: Array<[string, number[]]> = [
  ['image/png', [0x89, 0x50, 0x4e, 0x47]],
  ['image/jpeg', [0xff, 0xd8, 0xff]],
  ['image/gif', [0x47, 0x49, 0x46, 0x38]],
  ['image/webp', [0x52, 0x49, 0x46, 0x46]],
  ['application/pdf', [0x25, 0x50, 0x44, 0x46]],
];
/** Leading bytes needed to tell the type. */
const SNIFF_BYTES = 4;

/** The file's type by its leading bytes (never its name or declared type); undefined when not allowed. */
export function sniffUpload(bytes: Uint8Array): string | undefined {
  return SIGNATURES.find(([, sig]) => sig.every((b, i) => bytes[i] === b))?.[0];
}

const tooLarge = () => new Refusal(413, `The file is larger than ${UPLOAD_MAX_BYTES / 1048576} MiB`);
const notAllowed = () => new Refusal(400, 'Only PNG, JPEG, WebP, GIF or PDF files are accepted');

/** What takes an upload's bytes: the store (SQL storage), or nothing (memory storage: the engine's bytes). */
export interface UploadIntake {
  store?: UploadStore;
}

/** The upload store's statements: a database that does not answer is a 503, as for any call. */
async function storeCall<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof Refusal) throw error;
    throw new Refusal(503, 'The server is unavailable: try again in a moment');
  }
}

/** The StoredUpload in an upload's body for the engine, if any. */
export function storedUploadOf(body: unknown): StoredUpload | undefined {
  const file = (body as { file?: unknown } | null | undefined)?.file;
  return file instanceof StoredUpload ? file : undefined;
}

/** Multipart's own refusals and a broken body, as envelopes; a Refusal passes as it is. */
function multipartRefusal(error: unknown): Refusal {
  if (error instanceof Refusal) return error;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && /LIMIT|TOO_LARGE/.test(code)) return tooLarge();
  return new Refusal(400, 'Malformed multipart body');
}

/**
 * Streams one file part into blob `id` of the store, in chunks of UPLOAD_CHUNK_BYTES: its StoredUpload once
 * complete. A refusal (not an allowed type at its first bytes, or past 5 MiB) stops the storing at once; the
 * rest of the part is read and dropped, never kept, so the answer reaches a client still sending.
 */
async function streamToStore(part: MultipartFile, store: UploadStore, id: string): Promise<StoredUpload> {
  let size = 0;
  let seq = 0;
  let type: string | undefined;
  let refusal: Refusal | undefined;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const write = async (chunk: Buffer) => {
    const at = seq++;
    await storeCall(() => store.write(id, at, chunk));
  };
  for await (const chunk of part.file as AsyncIterable<Buffer>) {
    if (refusal) continue;
    if (part.file.truncated) {
      refusal = tooLarge();
      continue;
    }
    size += chunk.length;
    pending.push(chunk);
    pendingBytes += chunk.length;
    if (type === undefined && pendingBytes >= SNIFF_BYTES) {
      type = sniffUpload(Buffer.concat(pending));
      if (!type) {
        refusal = notAllowed();
        continue;
      }
    }
    if (type === undefined || pendingBytes < UPLOAD_CHUNK_BYTES) continue;
    // Awaiting each write holds the stream (and the socket) back: memory stays at a chunk or two.
    let joined = pending.length === 1 ? (pending[0] as Buffer) : Buffer.concat(pending);
    while (joined.length >= UPLOAD_CHUNK_BYTES) {
      await write(joined.subarray(0, UPLOAD_CHUNK_BYTES));
      joined = joined.subarray(UPLOAD_CHUNK_BYTES);
    }
    pending = joined.length > 0 ? [joined] : [];
    pendingBytes = joined.length;
  }
  if (!refusal && part.file.truncated) refusal = tooLarge();
  if (!refusal && size === 0) refusal = new Refusal(400, 'The file is empty');
  if (!refusal && !type) refusal = notAllowed();
  if (refusal) throw refusal;
  if (pendingBytes > 0) await write(Buffer.concat(pending));
  await storeCall(() => store.finish(id, size));
  return new StoredUpload(id, size, type ?? '', part.filename || 'upload');
}

/** The multipart body of an upload: its one `file`, checked by its bytes, for the engine. */
async function uploadBody(
  req: FastifyRequest,
  intake: UploadIntake,
): Promise<{ file: File | StoredUpload } | undefined> {
  // Admitted (within the IP's volume and the storage bound) before a byte of the body is read, so a refusal
  // is answered at once and Node discards the unread body; the reservation is the blob streamed into.
  const store = intake.store;
  const blob = store ? await storeCall(() => store.admit(req.ip)) : undefined;
  let file: File | StoredUpload | undefined;
  try {
    for await (const part of req.parts()) {
      if (part.type !== 'file') continue;
      if (part.fieldname !== 'file' || file) {
        part.file.resume();
        continue;
      }
      if (intake.store && blob) {
        file = await streamToStore(part, intake.store, blob);
        continue;
      }
      const bytes = await part.toBuffer();
      const type = sniffUpload(bytes);
      if (!type) throw notAllowed();
      file = new File([new Uint8Array(bytes)], part.filename || 'upload', { type });
    }
  } catch (error) {
    if (blob) await intake.store?.discard(blob).catch(() => undefined);
    throw multipartRefusal(error);
  }
  // No file part: the reservation is not needed.
  if (blob && !file) await intake.store?.discard(blob).catch(() => undefined);
  return file ? { file } : undefined;
}

/** Drains a multipart body sent to a path that takes none, so the connection stays usable. */
async function drainParts(req: FastifyRequest): Promise<void> {
  try {
    for await (const part of req.parts()) if (part.type === 'file') part.file.resume();
  } catch {
    throw new Refusal(400, 'Malformed multipart body');
  }
}

/** The engine's input from a request's body: its upload at an upload path, nothing from other multipart. */
export async function bodyOf(request: FastifyRequest, path: string, intake: UploadIntake): Promise<unknown> {
  if (!request.isMultipart()) return request.body;
  if (UPLOAD_PATHS.has(path)) return uploadBody(request, intake);
  await drainParts(request);
  return undefined;
}

/** An upload answered as its bytes: the owner's only, never kept by a cache, never sniffed into something executable. */
function uploadHeaders(reply: FastifyReply, type: string): FastifyReply {
  return reply
    .type(type)
    .header('Cache-Control', 'private, no-store')
    .header('Content-Security-Policy', "default-src 'none'");
}

/**
 * An <img> cannot read an envelope: a stored upload is answered as its bytes, unless the caller asks for
 * JSON (Accept: application/json), which gets the engine's envelope `{ name, type, size, dataUrl }`.
 * False when the answer is to be the envelope.
 */
export function sendUpload(req: FastifyRequest, reply: FastifyReply, response: EngineResponse): boolean {
  const data = response.body.data;
  const dataUrl = typeof data === 'object' && data !== null && 'dataUrl' in data ? data.dataUrl : undefined;
  const wantsJson = /^application\/json\b/i.test(req.headers.accept ?? '');
  if (wantsJson || response.body.code !== 0 || typeof dataUrl !== 'string') return false;
  const match = /^data:([\w./+-]+);base64,(.*)$/s.exec(dataUrl);
  if (!match?.[1] || match[2] === undefined) return false;
  void uploadHeaders(reply, match[1]).send(Buffer.from(match[2], 'base64'));
  return true;
}

/** A stored upload's bytes, streamed from the store chunk by chunk. */
export function sendStoredUpload(
  reply: FastifyReply,
  store: UploadStore,
  file: { id: string; type: string; size: number },
): FastifyReply {
  return uploadHeaders(reply, file.type)
    .header('Content-Length', String(file.size))
    .send(Readable.from(store.chunks(file.id), { objectMode: false }));
}

/** A stored upload's id (engine/accounts/uploads.ts StoredUpload) in a `GET /uploads/<id>` path. */
const STORED_UPLOAD_PATH = /^\/uploads\/(s-[0-9a-f]{32})$/;

/**
 * `GET /uploads/<id>` of a stored upload, answered here (the engine holds no bytes for it) under the
 * engine's rule: its owner gets it (bytes, or the envelope with a data URL for Accept: application/json),
 * anyone else the 404 of a missing id. The session is checked by the engine (/api/user/getuser with the
 * caller's headers). `sent` when the bytes went out; null when `path` is not a stored upload's.
 */
export async function answerStoredUpload(
  request: FastifyRequest,
  reply: FastifyReply,
  path: string,
  store: UploadStore,
  whoAsks: () => Promise<string | null>,
): Promise<EngineResponse | 'sent' | null> {
  const id = STORED_UPLOAD_PATH.exec(path)?.[1];
  if (!id) return null;
  const missing = envelope(404, 'Resource not found');
  const memberId = await whoAsks();
  const file = memberId === null ? undefined : await store.file(id);
  if (!file?.stored || file.memberId !== memberId) return missing;
  if (!/^application\/json\b/i.test(request.headers.accept ?? '')) {
    void sendStoredUpload(reply, store, { id, type: file.type, size: file.size });
    return 'sent';
  }
  // The contract's JSON form: the file as a data URL (at most 5 MiB, built for this answer only).
  const parts: Uint8Array[] = [];
  for await (const chunk of store.chunks(id)) parts.push(chunk);
  const dataUrl = `data:${file.type};base64,${Buffer.concat(parts).toString('base64')}`;
  return envelope(0, 'ok', { name: file.name, type: file.type, size: file.size, dataUrl });
}
