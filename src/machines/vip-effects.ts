/**
 * The VIP machine's default effects: buying and refunding through the app's API client. They are callback
 * actors so their outcomes arrive as the machine's own BOUGHT / REFUNDED / FAILED events (which a screen or
 * test may also send directly). Times are stamped with `now`, the clock the server's expiry is measured on:
 * Date.now in live mode; in demo mode the worker's clock, which fast-forward moves (transport.demo.now).
 */
import { fromCallback, type EventObject } from 'xstate';
import type { DataOf } from '../../engine/index';
import { api } from '../api';
import { toFailure } from './failure';

/** POST /api/Viplist/Buyvip answer (API.md): expiresAt only for the VIP1 trial, in Unix seconds. */
export type BuyResult = DataOf<'/api/Viplist/Buyvip'>;

export interface BuyInput {
  level: number;
  key: string;
}

type Outcome =
  | { type: 'BOUGHT'; result: BuyResult; at: number }
  | { type: 'REFUNDED' }
  | { type: 'FAILED'; code: number | string; msg: string };

function callbackFor<TInput, TOutput>(
  call: (input: TInput) => Promise<TOutput>,
  done: (output: TOutput) => Outcome,
) {
  return fromCallback<EventObject, TInput>(({ input, sendBack }) => {
    // An answer that arrives after the machine moved on (stopped actor) is dropped.
    let live = true;
    call(input).then(
      (output) => live && sendBack(done(output)),
      (error: unknown) => live && sendBack({ type: 'FAILED', ...toFailure(error) }),
    );
    return () => {
      live = false;
    };
  });
}

export function vipEffects(now: () => number = () => Date.now()) {
  return {
    buy: callbackFor<BuyInput, BuyResult>(
      ({ level, key }) => api.call('/api/Viplist/Buyvip', { level, key }),
      (result) => ({ type: 'BOUGHT', result, at: now() }),
    ),
    refund: callbackFor<{ level: number }, unknown>(
      ({ level }) => api.call('/api/Viplist/refund', { level }),
      () => ({ type: 'REFUNDED' }),
    ),
  };
}

/** 'vip3' -> 3; anything unreadable is level 0 (SPEC.md §3: the default is 'vip0'). */
export function levelOf(vip: string | number | undefined): number {
  const level = typeof vip === 'number' ? vip : Number(/^vip(\d)$/i.exec(vip ?? '')?.[1] ?? 0);
  return Number.isInteger(level) && level >= 0 && level <= 6 ? level : 0;
}
