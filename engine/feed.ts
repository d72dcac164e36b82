/**
 * The real-time feed (API.md "Real-time feed"). Handlers and jobs call ctx.emit; the runtime delivers the
 * buffered messages only after their unit of work committed, so a rolled-back change is never announced.
 * A throwing listener is isolated from the others and from the engine.
 */

export interface FeedMessage {
  type: string;
  data: unknown;
}

export type FeedListener = (message: FeedMessage) => void;

export class Feed {
  private readonly listeners = new Set<FeedListener>();

  subscribe(listener: FeedListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  publish(messages: readonly FeedMessage[]): void {
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
