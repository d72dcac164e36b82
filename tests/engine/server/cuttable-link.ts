/**
 * A TCP link to PostgreSQL that a test can cut and restore, as a network failure or a database restart
 * looks to the server: while cut, every open connection is reset and new ones are refused.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface CuttableLink {
  /** `url` with its host and port pointing through the link. */
  url: string;
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function cuttableLink(target: string): Promise<CuttableLink> {
  const to = new URL(target);
  const sockets = new Set<Socket>();
  let open = true;
  const server: Server = createServer((client) => {
    if (!open) {
      client.resetAndDestroy();
      return;
    }
    const upstream = connect(Number(to.port || 5432), to.hostname);
    for (const [a, b] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      sockets.add(a);
      a.on('error', () => b.destroy());
      a.on('close', () => {
        sockets.delete(a);
        b.destroy();
      });
      a.pipe(b);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as AddressInfo).port);
  return {
    url: url.toString(),
    cut() {
      open = false;
      for (const socket of sockets) socket.resetAndDestroy();
    },
    restore() {
      open = true;
    },
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
