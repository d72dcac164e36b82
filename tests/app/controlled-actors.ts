/**
 * Promise actors whose outcome the test decides: each started call waits until the test resolves or
 * rejects it, so generated paths can replay `xstate.done.actor.*` / `xstate.error.actor.*` on a live actor.
 */
import { fromPromise } from 'xstate';

export interface Controlled<TOutput, TInput> {
  logic: ReturnType<typeof fromPromise<TOutput, TInput>>;
  /** Inputs of every call started so far. */
  calls: TInput[];
  resolve(output: TOutput): Promise<void>;
  reject(error: unknown): Promise<void>;
}

/** Lets promise callbacks and the actor's reaction to them run. */
export async function flush(): Promise<void> {
  for (let i = 0; i < 5; i += 1) await Promise.resolve();
}

export function controlled<TOutput, TInput = unknown>(): Controlled<TOutput, TInput> {
  const pending: Array<{ resolve: (v: TOutput) => void; reject: (e: unknown) => void }> = [];
  const calls: TInput[] = [];
  const settle = async (how: (p: (typeof pending)[number]) => void): Promise<void> => {
    const next = pending.shift();
    if (!next) throw new Error('no call is waiting');
    how(next);
    await flush();
  };
  return {
    logic: fromPromise<TOutput, TInput>(
      ({ input }) =>
        new Promise<TOutput>((resolve, reject) => {
          calls.push(input);
          pending.push({ resolve, reject });
        }),
    ),
    calls,
    resolve: (output) => settle((p) => p.resolve(output)),
    reject: (error) => settle((p) => p.reject(error)),
  };
}
