/**
 * Where member uploads' bytes live on SQL storage: written chunk by chunk as the request streams in
 * (server/http/uploads.ts), bounded before the first byte per client IP (UPLOAD_BYTES_PER_IP over 24 hours,
 * 429) and overall (UPLOAD_STORAGE_MAX, 507) by a 5 MiB reservation under an advisory lock, so racing
 * instances never pass a bound together. The engine's `uploads` row names the blob by its id. Reservations,
 * clean-up: docs/SERVER.md "HTTP" ("Uploads").
 */
import { randomBytes } from 'node:crypto';
import type { FileRow } from '../engine/server';
import { uploadById } from './admin/queries/uploads';
import { Refusal } from './http/envelope';
import type { MigrationContext, SqlConnection, SqlDriver } from './sql-driver';

export interface UploadLimits {
  /** Largest file (the engine's uploadMaxBytes): what each upload reserves until it is complete. */
  maxFileBytes: number;
  /** Bytes one client IP may store per `perIpWindowMs` (UPLOAD_BYTES_PER_IP). */
  perIpBytes: number;
  perIpWindowMs: number;
  /** Bytes stored in all (UPLOAD_STORAGE_MAX). */
  storageMaxBytes: number;
}

/** Chunks are written in pieces of this size (one row each). */
export const UPLOAD_CHUNK_BYTES = 256 * 1024;

/** Migration 0014: the blobs (one row per upload, its client IP and size) and their chunks. */
export async function uploadStoreTables({ c, s }: MigrationContext): Promise<void> {
  await c.query(`CREATE TABLE ${s}.upload_blobs (
    id text PRIMARY KEY,
    client_ip text NOT NULL,
    size bigint NOT NULL CHECK (size >= 0),
    complete boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL DEFAULT now()
  )`);
  await c.query(`CREATE INDEX upload_blobs_ip ON ${s}.upload_blobs (client_ip, created_at)`);
  await c.query(`CREATE TABLE ${s}.upload_chunks (
    blob_id text NOT NULL REFERENCES ${s}.upload_blobs (id) ON DELETE CASCADE,
    seq integer NOT NULL CHECK (seq >= 0),
    bytes bytea NOT NULL,
    PRIMARY KEY (blob_id, seq)
  )`);
}

/** Blob `id`'s chunks in order, one statement each, so a reader holds one chunk (256 KiB) at a time. */
export async function* uploadChunks(c: SqlConnection, s: string, id: string): AsyncGenerator<Uint8Array> {
  for (let seq = 0; ; seq++) {
    const { rows } = await c.query<{ bytes: Uint8Array }>(
      `SELECT bytes FROM ${s}.upload_chunks WHERE blob_id = $1 AND seq = $2`,
      [id, seq],
      true,
    );
    const bytes = rows[0]?.bytes;
    if (!bytes) return;
    yield bytes;
  }
}

const mib = (bytes: number) => `${Math.floor(bytes / 1048576)} MiB`;

export class UploadStore {
  constructor(
    private readonly driver: SqlDriver,
    private readonly s: string,
    readonly limits: UploadLimits,
  ) {}

  /**
   * Admits one upload from `clientIp` within both bounds and reserves the largest file for it: its blob
   * id. Refusals: 429 (this IP's volume), 507 (the storage bound).
   */
  async admit(clientIp: string): Promise<string> {
    const { s, limits } = this;
    const id = `s-${randomBytes(16).toString('hex')}`;
    const c = await this.driver.connect();
    try {
      await c.query('BEGIN');
      try {
        await c.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`strata-uploads:${s}`]);
        await c.query(
          `DELETE FROM ${s}.upload_blobs WHERE NOT complete AND created_at < now() - interval '1 hour'`,
        );
        const { rows } = await c.query<{ total: string; ip: string }>(
          `SELECT coalesce(sum(size), 0)::text AS total,
                  coalesce(sum(size) FILTER (WHERE client_ip = $1
                    AND created_at > now() - make_interval(secs => $2::double precision / 1000)), 0)::text AS ip
             FROM ${s}.upload_blobs`,
          [clientIp, limits.perIpWindowMs],
        );
        const total = Number(rows[0]?.total ?? 0);
        const fromIp = Number(rows[0]?.ip ?? 0);
        if (total + limits.maxFileBytes > limits.storageMaxBytes)
          throw new Refusal(
            507,
            'Uploads are paused: the upload storage is full. Try again later or contact customer service',
          );
        if (fromIp + limits.maxFileBytes > limits.perIpBytes)
          throw new Refusal(
            429,
            `Too many uploads from this address (${mib(limits.perIpBytes)} a day): try again later`,
          );
        await c.query(`INSERT INTO ${s}.upload_blobs (id, client_ip, size) VALUES ($1, $2, $3)`, [
          id,
          clientIp,
          limits.maxFileBytes,
        ]);
        await c.query('COMMIT');
      } catch (error) {
        await c.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
    } finally {
      c.release();
    }
    return id;
  }

  /** Chunk `seq` of blob `id`. */
  async write(id: string, seq: number, bytes: Uint8Array): Promise<void> {
    await this.driver.query(
      `INSERT INTO ${this.s}.upload_chunks (blob_id, seq, bytes) VALUES ($1, $2, $3)`,
      [id, seq, bytes],
      true,
    );
  }

  /** The blob is complete: its reservation becomes its size. */
  async finish(id: string, size: number): Promise<void> {
    await this.driver.query(`UPDATE ${this.s}.upload_blobs SET size = $2, complete = true WHERE id = $1`, [
      id,
      size,
    ]);
  }

  /** Drops a blob and its chunks (a refused or failed upload). */
  async discard(id: string): Promise<void> {
    await this.driver.query(`DELETE FROM ${this.s}.upload_blobs WHERE id = $1`, [id]);
  }

  /** The blob's chunks in order, one statement each, so a read holds one chunk at a time. */
  chunks(id: string): AsyncGenerator<Uint8Array> {
    return uploadChunks(this.driver, this.s, id);
  }

  /** The engine's record of an upload (its `uploads` row), or undefined. */
  file(id: string): Promise<FileRow | undefined> {
    return uploadById(this.driver, this.s, id);
  }

  /** Bytes stored in all and blobs, for tests and operators. */
  async usage(): Promise<{ bytes: number; blobs: number; chunks: number }> {
    const { rows } = await this.driver.query<{ bytes: string; blobs: string; chunks: string }>(
      `SELECT (SELECT coalesce(sum(size), 0) FROM ${this.s}.upload_blobs)::text AS bytes,
              (SELECT count(*) FROM ${this.s}.upload_blobs)::text AS blobs,
              (SELECT count(*) FROM ${this.s}.upload_chunks)::text AS chunks`,
    );
    return {
      bytes: Number(rows[0]?.bytes ?? 0),
      blobs: Number(rows[0]?.blobs ?? 0),
      chunks: Number(rows[0]?.chunks ?? 0),
    };
  }
}
