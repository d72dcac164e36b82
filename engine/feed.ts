/**
 * The real-time feed (API.md "Real-time feed"). Handlers and jobs call ctx.emit; the runtime delivers the
 * buffered messages only after their unit of work committed, so a rolled-back change is never announced.
 * A throwing listener is isolated from the others and from the engine.
 */

import type { MarketFeedMessage } from './market/types';
import type { NoticeView } from './twofactor/wire';

/** What changed for one member: the app refreshes it (docs/API.md "Real-time feed"). */
interface MemberEvent<T extends string, D = object> {
  type: T;
  data: { memberId: string } & D;
}

/** A record's id and the status it reached (a reason beside a refusal). */
interface RecordChange {
  id: string;
  status: string;
  reason?: string;
}

export type AccountFeedMessage =
  | MemberEvent<'balance'>
  | MemberEvent<'deposit', RecordChange>
  | MemberEvent<'withdrawal', RecordChange>
  | MemberEvent<'position', RecordChange>
  | MemberEvent<'alert', RecordChange>
  | MemberEvent<'order', { id: string; kind?: 'finance' | 'mining'; status?: string }>
  | MemberEvent<'cert', { status: string; reason?: string }>
  | MemberEvent<'vip', { vip: string; message: string }>
  | MemberEvent<'notice', { notice: NoticeView }>;

/** Every message the engine publishes: the market's and the members'. */
export type EngineFeedMessage = MarketFeedMessage | AccountFeedMessage;

/** The socket's own messages: which member it is bound to, and a heartbeat (a server time, or null). */
export type SocketFeedMessage =
  { type: 'bound'; data: { memberId: string | null } } | { type: 'ping'; data: number | null };

/**
 * A message of the feed as a device receives it (the socket, or the demo engine in the browser). Parsed
 * from JSON on a live device: the client checks a payload's shape before using it.
 */
export type FeedMessage = EngineFeedMessage | SocketFeedMessage;

/** Every account event's type, once: a type added to AccountFeedMessage and not here fails the typecheck. */
const ACCOUNT_TYPES: Record<AccountFeedMessage['type'], true> = {
  balance: true,
  deposit: true,
  withdrawal: true,
  position: true,
  alert: true,
  order: true,
  cert: true,
  vip: true,
  notice: true,
};

/** A member's event (its data names the member), not the market's or the socket's. */
export function isAccountMessage(message: FeedMessage): message is AccountFeedMessage {
  return Object.hasOwn(ACCOUNT_TYPES, message.type);
}

/** The `data` of the feed's messages of `type`. */
export type FeedData<T extends FeedMessage['type']> = Extract<FeedMessage, { type: T }>['data'];

export type FeedListener = (message: EngineFeedMessage) => void;

export class Feed {
  private readonly listeners = new Set<FeedListener>();

  subscribe(listener: FeedListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  publish(messages: readonly EngineFeedMessage[]): void {
    for (const message of messages) {
      for (const listener of [...this.listeners]) {
        try {
          listener(message);
        } catch {
          // A subscriber's bug must not break delivery to the others or the committed call.
        }
      }
    }
  }
}
