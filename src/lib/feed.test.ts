import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { userStore } from '../state/user-store';
import { liveFeed } from './feed-actor';

/** A WebSocket stand-in that records what is sent once it is open. */
class FakeSocket {
  static readonly OPEN = 1;
  static last: FakeSocket | undefined;
  readyState = 0;
  sent: string[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((event: MessageEvent<unknown>) => void) | null = null;
  onerror: (() => void) | null = null;
  onclose: (() => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.last = this;
  }
  send(text: string): void {
    this.sent.push(text);
  }
  close(): void {
    this.readyState = 3;
    this.onclose?.();
  }
  open(): void {
    this.readyState = FakeSocket.OPEN;
    this.onopen?.();
  }
}

const handlers = () => ({
  open: vi.fn(),
  message: vi.fn(),
  messages: vi.fn(),
  error: vi.fn(),
  close: vi.fn(),
});

beforeEach(() => {
  vi.stubGlobal('WebSocket', FakeSocket);
  userStore.clear();
});

afterEach(() => {
  vi.unstubAllGlobals();
  userStore.clear();
});

describe('live feed socket auth', () => {
  it('sends the member credentials right after bind, and again on login and logout', () => {
    userStore.set({ id: 7, token: 'tok-7', username: 'alice' });
    const connection = liveFeed('ws://127.0.0.1:8787/ws', handlers());
    const socket = FakeSocket.last!;
    socket.open();
    connection.send(JSON.stringify({ type: 'bind', data: 'strata' }));
    expect(socket.sent.map((s) => JSON.parse(s) as unknown)).toEqual([
      { type: 'bind', data: 'strata' },
      { type: 'auth', data: { token: 'tok-7', userId: '7' } },
    ]);
    // A heartbeat bind does not repeat the auth.
    connection.send(JSON.stringify({ type: 'bind', data: 'strata' }));
    expect(socket.sent).toHaveLength(3);
    userStore.clear();
    expect(JSON.parse(socket.sent.at(-1)!)).toEqual({ type: 'auth', data: null });
    userStore.set({ id: 8, token: 'tok-8', username: 'bob' });
    expect(JSON.parse(socket.sent.at(-1)!)).toEqual({ type: 'auth', data: { token: 'tok-8', userId: '8' } });
  });

  it('stops following the member once the socket closes', () => {
    const connection = liveFeed('ws://127.0.0.1:8787/ws', handlers());
    const socket = FakeSocket.last!;
    socket.open();
    connection.send(JSON.stringify({ type: 'bind', data: 'strata' }));
    connection.close();
    const before = socket.sent.length;
    userStore.set({ id: 9, token: 'tok-9', username: 'carol' });
    expect(socket.sent).toHaveLength(before);
  });
});
