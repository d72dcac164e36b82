/** The machines as screens use them: through @xstate/react, with effects provided. */
import { act, render, screen } from '@testing-library/react';
import { useActorRef, useSelector } from '@xstate/react';
import { describe, expect, it } from 'vitest';
import { fromPromise } from 'xstate';
import type { LocalUser } from '../state/user-store';
import { sessionMachine } from './session';

const ALICE: LocalUser = { id: '7', token: 'tok', username: 'alice', vip: 'vip1', balance: '3' };

function SessionProbe({ stored }: { stored: LocalUser | null }) {
  const session = useActorRef(
    sessionMachine.provide({
      actors: { restore: fromPromise(async () => stored) },
      actions: { saveUser: () => undefined, clearUser: () => undefined, toastLoggedOut: () => undefined },
    }),
  );
  const state = useSelector(session, (s) => s.value);
  const name = useSelector(session, (s) => s.context.user?.username ?? '-');
  return (
    <div>
      <p>{`${String(state)}:${name}`}</p>
      <button onClick={() => session.send({ type: 'TOKEN_EXPIRED' })}>expire</button>
      {state === 'tokenExpired' && (
        <div role="dialog">
          <button onClick={() => session.send({ type: 'ACK_EXPIRED' })}>ok</button>
        </div>
      )}
    </div>
  );
}

describe('machines in React', () => {
  it('a screen reads the session and shows one expired dialog', async () => {
    render(<SessionProbe stored={ALICE} />);
    expect(await screen.findByText('loggedIn:alice')).toBeTruthy();
    act(() => screen.getByText('expire').click());
    act(() => screen.getByText('expire').click());
    expect(screen.getAllByRole('dialog')).toHaveLength(1);
    act(() => screen.getByText('ok').click());
    expect(screen.getByText('loggedOut:-')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
