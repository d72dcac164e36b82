/**
 * The event bus between server instances: a feed message committed on one instance reaches the sockets of
 * every instance. `bus.publish(message)` sends to every instance, this one included; `bus.subscribe(listener)`
 * hears them all and returns the unsubscribe. `localBus()` is one process's bus; `postgresBus()` uses
 * LISTEN/NOTIFY (large messages through `strata_events`); `bridgeFeed()` puts an engine's feed on a bus.
 * Payloads, ordering and what is lost while the listener reconnects: docs/SERVER.md "Storage".
 */
import type pg from 'pg';
import type { Engine, EngineFeedMessage } from '../engine/index';
import { checkSchemaName, type SqlDriver } from './sql-driver';

/** What travels between instances: the engine's feed, and the market gateway's snapshots (never to sockets). */
export type BusMessage = EngineFeedMessage | { type: 'market.snapshot'; data: unknown };

export type BusListener = (message: BusMessage) => void;

export interface EventBus {
  publish(message: BusMessage): void;
  subscribe(listener: BusListener): () => void;
  close(): Promise<void>;
  /** Messages published here and not yet sent to the other instances (the metrics' outbox depth). */
  pending?(): number;
}

class Listeners {
  private readonly set = new Set<BusListener>();

  add(listener: BusListener): () => void {
    this.set.add(listener);
    return () => {
      this.set.delete(listener);
    };
  }

  emit(message: BusMessage): void {
    for (const listener of [...this.set]) {
      try {
        listener(message);
      } catch {
        // One subscriber's bug must not stop delivery to the others.
      }
    }
  }
}

export function localBus(): EventBus {
  const listeners = new Listeners();
  return {
    publish: (message) => listeners.emit(message),
    subscribe: (listener) => listeners.add(listener),
    close: async () => undefined,
  };
}

/** NOTIFY payloads must stay under 8,000 bytes; a little margin for the JSON around the message. */
const MAX_PAYLOAD = 7_900;

/** A message from another instance (parsed JSON): its type is checked, its data is its listeners' to check. */
function isBusMessage(value: unknown): value is BusMessage {
  return (
    typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string'
  );
}

export interface PostgresBusOptions {
  url: string;
  /** The schema of the SQL store: the channel and the overflow table are per schema. */
  schema: string;
  /** Publishes and reads overflow rows (the store's driver). */
  driver: SqlDriver;
  /** Wait before re-listening after the listening connection failed (default 1 s). */
  retryMs?: number;
  /** The channel's name before the schema (default `strata_events`; the market gateway's: `strata_market`). */
  channel?: string;
  /** Told the size of each NOTIFY batch (server/metrics.ts). */
  onBatch?: (size: number) => void;
}

export async function postgresBus(options: PostgresBusOptions): Promise<EventBus> {
  const schema = checkSchemaName(options.schema);
  const channel = `${options.channel ?? 'strata_events'}_${schema}`;
  const { driver } = options;
  const listeners = new Listeners();
  const { default: pgModule } = await import('pg');
  let client: pg.Client | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  let published = 0;

  const deliver = async (payload: string | undefined) => {
    if (!payload) return;
    try {
      const parsed = JSON.parse(payload) as unknown;
      if (isBusMessage(parsed)) {
        listeners.emit(parsed);
        return;
      }
      const ref = (parsed as { ref?: unknown } | null)?.ref;
      if (typeof ref !== 'string') return;
      const { rows } = await driver.query<{ message: unknown }>(
        `SELECT message FROM ${schema}.strata_events WHERE id = $1`,
        [ref],
      );
      const message = rows[0]?.message;
      if (isBusMessage(message)) listeners.emit(message);
    } catch {
      // A malformed payload or a failed read loses this one message, never the bus.
    }
  };

  const listen = async (): Promise<void> => {
    const c = new pgModule.Client({ connectionString: options.url });
    c.on('notification', (n) => void deliver(n.payload));
    c.on('error', () => {
      // The database restarted or the connection was killed: drop it and listen again shortly.
      if (client === c) client = null;
      c.end().catch(() => undefined);
      schedule();
    });
    await c.connect();
    await c.query(`LISTEN ${channel}`);
    if (closed) {
      await c.end();
      return;
    }
    client = c;
  };

  const schedule = () => {
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      listen().catch(schedule);
    }, options.retryMs ?? 1_000);
    retry.unref();
  };

  await listen();

  /** The payload of one message: itself, or the id of its overflow row. */
  const payloadOf = async (message: BusMessage): Promise<string> => {
    const payload = JSON.stringify(message);
    if (Buffer.byteLength(payload) <= MAX_PAYLOAD) return payload;
    const { rows } = await driver.query<{ id: string }>(
      `INSERT INTO ${schema}.strata_events (message) VALUES ($1::jsonb) RETURNING id::text AS id`,
      [payload],
    );
    if (++published % 100 === 0) {
      await driver.query(`DELETE FROM ${schema}.strata_events WHERE at < now() - interval '1 minute'`);
    }
    return JSON.stringify({ ref: rows[0]?.id });
  };

  // Messages published while a NOTIFY statement is in flight wait and go together in the next one (one
  // statement and one pool connection for many messages instead of one each), in publication order. One
  // statement is one transaction, where PostgreSQL delivers identical payloads once: such messages say
  // the same thing ("member 100001's balance changed"), so a listener loses nothing it would act on.
  let queued: BusMessage[] = [];
  let flushing = false;
  const flush = async (): Promise<void> => {
    try {
      while (queued.length > 0) {
        const batch = queued;
        queued = [];
        options.onBatch?.(batch.length);
        try {
          const payloads: string[] = [];
          for (const message of batch) payloads.push(await payloadOf(message));
          await driver.query(
            `SELECT pg_notify($1, p) FROM unnest($2::text[]) AS p`,
            [channel, payloads],
            true,
          );
        } catch {
          // The database is unreachable: these messages are lost (see the file comment), the caller carries on.
        }
      }
    } finally {
      flushing = false;
    }
  };

  return {
    publish: (message) => {
      queued.push(message);
      if (flushing) return;
      // Started after the current task, so the messages of one unit of work (published together) share it.
      flushing = true;
      queueMicrotask(() => void flush());
    },
    subscribe: (listener) => listeners.add(listener),
    pending: () => queued.length,
    close: async () => {
      closed = true;
      clearTimeout(retry);
      const c = client;
      client = null;
      await c?.end().catch(() => undefined);
    },
  };
}

/**
 * The engine as the socket hub sees it, with its feed carried over `bus`: every message the engine publishes
 * goes on the bus, and subscribers hear the bus (so messages of other instances too, and this instance's
 * own once, through the bus). Returns the view and the function that disconnects the engine from the bus.
 */
export function bridgeFeed(engine: Engine, bus: EventBus): { engine: Engine; close: () => void } {
  const stop = engine.subscribe((message) => bus.publish(message));
  // The market gateway's snapshots share the bus but are not the engine's feed: they never reach a socket.
  const subscribe: Engine['subscribe'] = (listener) =>
    bus.subscribe((message) => {
      if (message.type !== 'market.snapshot') listener(message);
    });
  return { engine: { ...engine, subscribe }, close: stop };
}
