/**
 * Uploads (@fastify/multipart): one `file` part of at most 5 MiB, typed by its leading bytes (never its
 * name or declared type), handed to the engine as `{ file }`; and a stored upload answered as its bytes.
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { EngineResponse } from '../../engine/index';
import { Refusal } from './envelope';

const UPLOAD_PATHS = new Set(['/api/user/uploads', '/api/Recharges/uploads']);
const UPLOAD_MAX_BYTES = 5 * 1024 * 1024;

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

/** The file's type by its leading bytes (never its name or declared type); undefined when not allowed. */
export function sniffUpload(bytes: Uint8Array): string | undefined {
  return SIGNATURES.find(([, sig]) => sig.every((b, i) => bytes[i] === b))?.[0];
}

/** The multipart body of an upload: its one `file`, checked by its bytes, as the engine's `{ file }`. */
async function uploadBody(req: FastifyRequest): Promise<{ file: File } | undefined> {
  let file: File | undefined;
  try {
    for await (const part of req.parts()) {
      if (part.type !== 'file') continue;
      const bytes = await part.toBuffer();
      if (part.fieldname !== 'file' || file) continue;
      const type = sniffUpload(bytes);
      if (!type) throw new Refusal(400, 'Only PNG, JPEG, WebP, GIF or PDF files are accepted');
      file = new File([new Uint8Array(bytes)], part.filename || 'upload', { type });
    }
  } catch (error) {
    if (error instanceof Refusal) throw error;
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && /LIMIT|TOO_LARGE/.test(code))
      throw new Refusal(413, `The file is larger than ${UPLOAD_MAX_BYTES / 1048576} MiB`);
    throw new Refusal(400, 'Malformed multipart body');
  }
  return file ? { file } : undefined;
}

/** Drains a multipart body sent to a path that takes none, so the connection stays usable. */
async function drainParts(req: FastifyRequest): Promise<void> {
  try {
    for await (const part of req.parts()) if (part.type === 'file') await part.toBuffer();
  } catch {
    throw new Refusal(400, 'Malformed multipart body');
  }
}

/** The engine's input from a request's body: its upload at an upload path, nothing from other multipart. */
export async function bodyOf(request: FastifyRequest, path: string): Promise<unknown> {
  if (!request.isMultipart()) return request.body;
  if (UPLOAD_PATHS.has(path)) return uploadBody(request);
  await drainParts(request);
  return undefined;
}

/**
 * An <img> cannot read an envelope: a stored upload is answered as its bytes, unless the caller asks for
 * JSON (Accept: application/json), which gets the engine's envelope `{ name, type, size, dataUrl }`.
 * False when the answer is to be the envelope.
 */
export function sendUpload(req: FastifyRequest, reply: FastifyReply, response: EngineResponse): boolean {
  const data = response.body.data as { type?: unknown; dataUrl?: unknown } | null;
  const wantsJson = /^application\/json\b/i.test(req.headers.accept ?? '');
  if (wantsJson || response.body.code !== 0 || typeof data?.dataUrl !== 'string') return false;
  const match = /^data:([\w./+-]+);base64,(.*)$/s.exec(data.dataUrl);
  if (!match?.[1] || match[2] === undefined) return false;
  void reply
    .type(match[1])
    // Identity documents: the owner's only (the engine checked the session), never kept by a cache, never
    // sniffed into something executable.
    .header('Cache-Control', 'private, no-store')
    .header('Content-Security-Policy', "default-src 'none'")
    .send(Buffer.from(match[2], 'base64'));
  return true;
}
