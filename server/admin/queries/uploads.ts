/** Member uploads (payment proofs, identity documents) as operators reach them. */
import type { FileRow } from '../../../engine/server';
import { decodeValue, escapeText } from '../../sql-codec';
import type { SqlConnection } from '../../sql-driver';

/** A member upload's relative URL as the engine hands it out (engine/accounts/uploads.ts). */
const MEMBER_UPLOAD_URL = /^\/uploads\/([\w-]{1,64})$/;

/**
 * The operator route of a member upload's URL (`/uploads/<id>` -> `/api/admin/uploads/<id>`), which the
 * console fetches with the operator's token; null for anything that is not an upload's URL, so the console
 * never sends its token elsewhere.
 */
export function operatorUploadUrl(url: string | null): string | null {
  const id = url === null ? undefined : MEMBER_UPLOAD_URL.exec(url)?.[1];
  return id === undefined ? null : `/api/admin/uploads/${id}`;
}

/** One member upload (the engine's `files` table, SQL table `uploads`), or undefined. */
export async function uploadById(c: SqlConnection, s: string, id: string): Promise<FileRow | undefined> {
  const { rows } = await c.query<{ v: unknown }>(`SELECT v FROM ${s}.uploads WHERE id = $1`, [
    escapeText(id),
  ]);
  const [row] = rows;
  return row ? (decodeValue(row.v) as FileRow) : undefined;
}
