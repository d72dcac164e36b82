/**
 * Frames the feed refuses (audit L8): a frame over 16 KiB closes its socket with 1009 and costs the log
 * at most one warn line a minute, never an error-level stack trace per frame.
 */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startServer } from '../../../server/app';
import { configFromEnv } from '../../../server/config';
import { MAX_FRAME_BYTES, socketErrorLog } from '../../../server/http/socket';
import { TEST_XPUB } from './serve';

interface Line {
  level: number;
  msg: string;
  refused?: number;
}

describe('refused WebSocket frames', () => {
  it('20 frames over 16 KiB: each socket closed with 1009, one warn line, no error line', async () => {
    const lines: Line[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const text of chunk.toString().split('\n'))
          if (text.trim() !== '') lines.push(JSON.parse(text) as Line);
        done();
      },
    });
    const server = await startServer({
      config: {
        ...configFromEnv({}),
        port: 0,
        // Files run side by side: the default metrics port (9464) would be taken by whichever started first.
        metricsPort: null,
        settleEveryMs: 0,
        pbkdf2Iterations: 1_000,
        walletXpub: TEST_XPUB,
      },
      storage: 'memory',
      logger: { level: 'info', stream },
    });
    try {
      const closes: number[] = [];
      for (let i = 0; i < 20; i++) {
        const socket = new WebSocket(`${server.url.replace('http', 'ws')}/ws`);
        await new Promise((resolve, reject) => {
          socket.once('open', resolve);
          socket.once('error', reject);
        });
        const closed = new Promise<number>((resolve) => socket.once('close', resolve));
        socket.send('x'.repeat(MAX_FRAME_BYTES + 1));
        closes.push(await closed);
      }
      expect(closes).toEqual(Array<number>(20).fill(1009));
      // The feed still serves a well-behaved socket.
      expect((await (await fetch(`${server.url}/api/site/getsite`)).json()) as object).toMatchObject({
        code: 0,
      });
    } finally {
      await server.close();
    }
    expect(lines.filter((l) => l.level >= 50)).toEqual([]);
    const warns = lines.filter((l) => l.level === 40 && /WebSocket frames refused/.test(l.msg));
    expect(warns).toHaveLength(1);
  }, 60_000);

  it('the warn line comes back after a minute with the count of refusals since the last one', () => {
    const logged: { level: string; fields: Record<string, unknown> }[] = [];
    const log = {
      warn: (fields: Record<string, unknown>) => logged.push({ level: 'warn', fields }),
      error: (fields: Record<string, unknown>) => logged.push({ level: 'error', fields }),
    } as unknown as Parameters<typeof socketErrorLog>[0];
    let now = 0;
    const onError = socketErrorLog(log, () => now);
    const socket = { terminate: () => undefined } as unknown as WebSocket;
    const tooBig = Object.assign(new RangeError('Max payload size exceeded'), {
      code: 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH',
    });
    for (let i = 0; i < 5; i++) onError(tooBig, socket);
    now = 60_000;
    onError(tooBig, socket);
    expect(logged.map((l) => [l.level, l.fields['refused']])).toEqual([
      ['warn', 1],
      ['warn', 5],
    ]);
    // Not the client's doing: still an error.
    onError(new Error('handler failed'), socket);
    expect(logged.at(-1)?.level).toBe('error');
  });
});
