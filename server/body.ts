/**
 * Request bodies for engine.handle: JSON arrives as its raw text (the engine parses it once, and answers
 * 400 for malformed JSON), multipart as a FormData (the upload handlers read its `file`). Both are read
 * whole under a byte limit, so an oversized body is refused before anything is parsed.
 */
import type { IncomingMessage } from 'node:http';

export class BodyError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

async function readAll(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw tooLarge(limit);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function tooLarge(limit: number): BodyError {
  return new BodyError(413, `The request body is larger than ${Math.floor(limit / 1024)} KiB`);
}

/** Undefined for a bodiless request; a string (JSON text) or a FormData otherwise. */
export async function readBody(req: IncomingMessage, limit: number): Promise<string | FormData | undefined> {
  if (req.method === 'GET' || req.method === 'HEAD') return undefined;
  const bytes = await readAll(req, limit);
  const type = req.headers['content-type'] ?? '';
  if (/^multipart\/form-data/i.test(type)) {
    try {
      return await new Request('http://server.local/', {
        method: 'POST',
        headers: { 'content-type': type },
        body: new Uint8Array(bytes),
      }).formData();
    } catch {
      throw new BodyError(400, 'Malformed multipart body');
    }
  }
  return bytes.length === 0 ? undefined : bytes.toString('utf8');
}
