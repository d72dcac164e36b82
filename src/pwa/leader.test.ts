import { afterEach, describe, expect, it, vi } from 'vitest';
import { runAsLeader } from './leader';
import { fakeLocks } from './test-locks';
import { onLeadership, resetLeadershipForTests, startLeaderElection } from './leadership';

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => resetLeadershipForTests());

describe('runAsLeader (one tab runs the scheduled jobs and the sync)', () => {
  it('lets only one of two tabs lead, and hands over when the leader goes away', async () => {
    const locks = fakeLocks();
    const started: string[] = [];
    const stopped: string[] = [];
    const task = (tab: string) => () => {
      started.push(tab);
      return () => stopped.push(tab);
    };
    const first = runAsLeader('jobs', task('first'), { locks });
    const second = runAsLeader('jobs', task('second'), { locks });
    await tick();
    expect(started).toEqual(['first']);
    expect([first.leading, second.leading]).toEqual([true, false]);

    first.stop();
    await tick();
    expect(stopped).toEqual(['first']);
    expect(started).toEqual(['first', 'second']);
    expect([first.leading, second.leading]).toEqual([false, true]);
    second.stop();
  });

  it('stops waiting quietly when stopped before it ever led', async () => {
    const locks = fakeLocks();
    const onError = vi.fn();
    const leader = runAsLeader('jobs', () => undefined, { locks });
    const follower = runAsLeader('jobs', () => undefined, { locks, onError });
    follower.stop();
    leader.stop();
    await tick();
    expect(follower.leading).toBe(false);
    expect(onError).not.toHaveBeenCalled();
    expect(locks.held.size).toBe(0);
  });

  it('releases the lock and reports when the task throws', async () => {
    const locks = fakeLocks();
    const onError = vi.fn();
    runAsLeader(
      'jobs',
      () => {
        throw new Error('boom');
      },
      { locks, onError },
    );
    await tick();
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ message: 'boom' }));
    expect(locks.held.has('jobs')).toBe(false);
  });

  it('leads alone when the browser has no Web Locks', async () => {
    const original = Object.getOwnPropertyDescriptor(navigator, 'locks');
    Object.defineProperty(navigator, 'locks', { value: undefined, configurable: true });
    try {
      const task = vi.fn();
      const handle = runAsLeader('jobs', task);
      await tick();
      expect(task).toHaveBeenCalledOnce();
      expect(handle.leading).toBe(true);
      handle.stop();
    } finally {
      if (original) Object.defineProperty(navigator, 'locks', original);
    }
  });
});

describe('the app election', () => {
  it('starts subscribed jobs when this tab becomes leader and stops them when it steps down', async () => {
    const locks = fakeLocks();
    const stoppedJobs: string[] = [];
    const before = vi.fn(() => () => stoppedJobs.push('before'));
    onLeadership(before);
    const election = startLeaderElection({ locks });
    await tick();
    expect(before).toHaveBeenCalledOnce();

    // A job subscribed while already leading starts at once.
    const after = vi.fn(() => () => stoppedJobs.push('after'));
    onLeadership(after);
    await tick();
    expect(after).toHaveBeenCalledOnce();

    election.stop();
    await tick();
    expect(stoppedJobs.sort()).toEqual(['after', 'before']);
  });
});
