/**
 * Uploads (POST /api/user/uploads, /api/Recharges/uploads): multipart field `file`, PNG, JPEG, WebP, GIF or
 * PDF checked by their leading bytes, at most `config.uploadMaxBytes` (5 MiB), served back at `/uploads/<id>`
 * to the member who uploaded it only (anyone else gets 404, so an id is never confirmed). On SQL storage the
 * server streams the bytes into its upload store and hands the engine a `StoredUpload` without them.
 * docs/DECISIONS.md "Accounts", docs/SERVER.md "HTTP" ("Uploads").
 */
import { base64 } from '@scure/base';
import { Codes, fail } from '../errors';
import { handler } from '../router';
import { authenticate } from '../security/sessions';
import { defineTable } from '../store/port';
import type { AuthCtx, Ctx } from '../context';
import { z } from 'zod';

export interface FileRow {
  id: string;
  memberId: string;
  purpose: 'user' | 'recharge';
  name: string;
  type: string;
  size: number;
  /** The bytes in base64; empty when `stored`. */
  data: string;
  /** The bytes are kept by the host's upload store under this row's id, not in `data`. */
  stored?: true;
  createdAt: number;
}

/**
 * A file the host already holds (the server's upload store, filled while the request streamed in), checked
 * there by its leading bytes: the upload call records it instead of bytes. A class, so no JSON body can pose
 * as one. `id` becomes the file's id (`s-` and 32 hex digits: 128 random bits).
 */
export class StoredUpload {
  constructor(
    readonly id: string,
    readonly size: number,
    readonly type: string,
    readonly name: string,
  ) {}
}

const STORED_ID = /^s-[0-9a-f]{32}$/;

export const files = defineTable<FileRow>('files', { member: (f) => f.memberId });

interface BlobLike {
  size: number;
  type: string;
  name?: string;
  arrayBuffer(): Promise<ArrayBuffer>;
}

const SIGNATURES: Array<[string, number[]]> = [
  ['image/png', [0x89, 0x50, 0x4e, 0x47]],
  ['image/jpeg', [0xff, 0xd8, 0xff]],
  ['image/gif', [0x47, 0x49, 0x46, 0x38]],
  ['image/webp', [0x52, 0x49, 0x46, 0x46]],
  ['application/pdf', [0x25, 0x50, 0x44, 0x46]],
];

function isBlobLike(v: unknown): v is BlobLike {
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof (v as BlobLike).arrayBuffer === 'function' &&
    typeof (v as BlobLike).size === 'number' &&
    typeof (v as BlobLike).type === 'string'
  );
}

/** The `file` of a FormData-like body or of a plain `{ file }` object. */
function fileOf(body: unknown): BlobLike | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const getter = (body as { get?: unknown }).get;
  const candidate: unknown =
    typeof getter === 'function'
      ? (getter as (n: string) => unknown).call(body, 'file')
      : (body as { file?: unknown }).file;
  return isBlobLike(candidate) ? candidate : undefined;
}

/** The member's uploads so far plus `size` must stay within `config.uploadQuotaBytes`. */
async function checkQuota(ctx: AuthCtx, size: number): Promise<void> {
  const used = (await ctx.tx.query(files, 'member', ctx.member.id)).reduce((sum, f) => sum + f.size, 0);
  if (used + size > ctx.config.uploadQuotaBytes) {
    throw fail(
      400,
      `Your uploads would exceed ${Math.floor(ctx.config.uploadQuotaBytes / 1048576)} MiB: contact customer service`,
    );
  }
}

export function uploadsHandler(purpose: FileRow['purpose']) {
  return handler({
    auth: true,
    raw: true,
    body: z.unknown(),
    run: async (ctx, input) => {
      const held = input instanceof StoredUpload ? input : (input as { file?: unknown } | null)?.file;
      if (held instanceof StoredUpload) {
        const allowed = SIGNATURES.some(([type]) => type === held.type);
        if (!STORED_ID.test(held.id) || !allowed || held.size <= 0)
          throw fail(400, 'Only PNG, JPEG, WebP, GIF or PDF files are accepted');
        if (held.size > ctx.config.uploadMaxBytes)
          throw fail(400, `The file is larger than ${Math.floor(ctx.config.uploadMaxBytes / 1048576)} MiB`);
        await checkQuota(ctx, held.size);
        ctx.tx.put(files, {
          id: held.id,
          memberId: ctx.member.id,
          purpose,
          name: held.name.replace(/[^\w.-]+/g, '_').slice(0, 80) || 'upload',
          type: held.type,
          size: held.size,
          data: '',
          stored: true,
          createdAt: ctx.now,
        });
        return { url: `/uploads/${held.id}` };
      }
      const file = fileOf(input);
      if (!file) throw fail(400, 'Send the file as multipart field "file"');
      if (file.size === 0) throw fail(400, 'The file is empty');
      if (file.size > ctx.config.uploadMaxBytes) {
        throw fail(400, `The file is larger than ${Math.floor(ctx.config.uploadMaxBytes / 1048576)} MiB`);
      }
      const bytes = new Uint8Array(await file.arrayBuffer());
      const sniffed = SIGNATURES.find(([, sig]) => sig.every((b, i) => bytes[i] === b))?.[0];
      if (!sniffed || (file.type && file.type !== sniffed)) {
        throw fail(400, 'Only PNG, JPEG, WebP, GIF or PDF files are accepted');
      }
      await checkQuota(ctx, bytes.length);
      const id = `${await ctx.ids.next('file')}-${(await ctx.secrets.token()).slice(0, 16)}`;
      const name = (file.name ?? 'upload').replace(/[^\w.-]+/g, '_').slice(0, 80);
      ctx.tx.put(files, {
        id,
        memberId: ctx.member.id,
        purpose,
        name,
        type: sniffed,
        size: bytes.length,
        data: base64.encode(bytes),
        createdAt: ctx.now,
      });
      return { url: `/uploads/${id}` };
    },
  });
}

export const fileHandler = handler({
  method: 'GET',
  auth: false,
  // Not `auth: true`: without a session the answer is the same 404 as for a stranger, never a 401.
  run: async (ctx, _body, params) => {
    const session = await authenticate(ctx.tx, ctx.headers, ctx.now);
    const row = session ? await ctx.tx.get(files, params['id'] ?? '') : undefined;
    // A stored row's bytes are the host's to answer (the server does, before the engine is asked).
    if (!row || row.memberId !== session?.member.id || row.stored)
      throw fail(Codes.notFound, 'Resource not found');
    return { name: row.name, type: row.type, size: row.size, dataUrl: `data:${row.type};base64,${row.data}` };
  },
});

/** The member's own upload behind a relative URL, or undefined. */
export async function ownUpload(ctx: Ctx, memberId: string, url: string): Promise<FileRow | undefined> {
  const match = /^\/uploads\/([\w-]+)$/.exec(url.trim());
  if (!match?.[1]) return undefined;
  const row = await ctx.tx.get(files, match[1]);
  return row && row.memberId === memberId ? row : undefined;
}
