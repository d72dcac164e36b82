/**
 * The app's writes through the outbox (src/sync/writes.ts) on the app's sync engine and device database,
 * and how answers nobody awaited reach the member: a success toast, or the catalogue error as the API
 * client presents it, named after what was written ("Transfer of 25 USDT to alice").
 */
import type { BodyOf, ContractPath, DataOf } from '../../engine/index';
import { ApiError, reportError } from '../api';
import { describeError, errorText } from '../api/errors';
import { toastStore } from '../state/toast-store';
import { userStore } from '../state/user-store';
import { i18next } from '../i18n';
import { formatAmount } from '../lib/format';
import { appSync } from './app';
import { appDeviceDb } from './device';
import { holdsSecrets } from './outbox';
import { browserOnline } from './sync-engine';
import {
  createWrites,
  isApplied,
  startWriteNotices,
  type Notice,
  type SendOptions,
  type Writes,
} from './writes';

let instance: Writes | undefined;

export function appWrites(): Writes {
  const online = browserOnline();
  instance ??= createWrites({
    db: appDeviceDb(),
    sync: appSync(),
    online: online.get,
    member: () => userStore.get()?.id ?? null,
  });
  return instance;
}

const KINDS: Record<string, string> = {
  '/api/transfer/submit': 'transfer',
  '/api/account/transfer': 'move',
  '/api/order/place': 'order',
  '/api/order/cancel': 'cancel',
  '/api/bank/add': 'bank',
  '/api/position/settings': 'settings',
  '/api/withdraw/submit': 'withdraw',
  '/api/market/favourite': 'favourite',
  '/api/notice/seen': 'noticesSeen',
};

/**
 * Writes whose own screen shows their outcome (a star, the unread count): applied later, they raise no toast.
 */
const QUIET_WHEN_APPLIED: ReadonlySet<string> = new Set(['/api/market/favourite', '/api/notice/seen']);

/** "Transfer of 25.00 USDT to alice": what a queued write was, for its notice and its pending row. */
export function describeWrite(name: string, args: Record<string, unknown>): string {
  const amount =
    typeof args.amount === 'string' ? formatAmount(args.amount, { locale: i18next.language }) : '';
  const account = typeof args.account === 'string' ? args.account : '';
  const symbol = typeof args.symbol === 'string' ? args.symbol : '';
  return i18next.t(`outbox.kind.${KINDS[name] ?? 'other'}`, { amount, account, symbol });
}

export function presentNotice({ result, applied }: Notice): void {
  const args =
    typeof result.args === 'object' && result.args !== null ? (result.args as Record<string, unknown>) : {};
  if (applied && QUIET_WHEN_APPLIED.has(result.name)) return;
  const what = describeWrite(result.name, args);
  if (applied) {
    toastStore.show(i18next.t('outbox.appliedToast', { what }), 'success');
    return;
  }
  const reason = errorText(describeError(result.code, result.msg), (key, params) =>
    i18next.t(key, { ...params }),
  );
  toastStore.show(i18next.t('outbox.failedToast', { what, reason }), 'error');
}

/**
 * Starts presenting answers to writes queued earlier (this session or before a reload), and pushes, when
 * the connection returns, the entries whose withheld fields only this tab holds (the leader tab pushes the
 * rest; it leaves these alone for SECRET_GRACE_MS).
 */
export function startAppWrites(): () => void {
  const online = browserOnline();
  const stopOnline = online.subscribe(() => {
    if (online.get() && holdsSecrets() && userStore.get())
      appSync()
        .flush()
        .catch(() => undefined);
  });
  const stopNotices = startWriteNotices(
    {
      db: appDeviceDb(),
      writes: appWrites(),
      member: () => userStore.get()?.id ?? null,
      subscribeMember: userStore.subscribe,
    },
    presentNotice,
  );
  return () => {
    stopOnline();
    stopNotices();
  };
}

export type WriteOutcome<T> =
  { queued: true; id: string } | { queued: false; id: string; data: T; code: number };

/**
 * A confirmed write from a screen, through the outbox: answered now (applied: its data; refused: an
 * ApiError presented like any call's, then thrown), or queued: `{ queued: true }` after a notice that it
 * waits for the connection (its pending row shows it; its answer comes as a notice later).
 */
export async function sendWrite<P extends ContractPath>(
  path: P,
  body: BodyOf<P>,
  options: SendOptions & { silent?: boolean } = {},
): Promise<WriteOutcome<DataOf<P>>> {
  const writes = appWrites();
  const { id, result } = await writes.send(path, body as Record<string, unknown>, options);
  if (!result) {
    toastStore.show(i18next.t('outbox.queuedToast'), 'info');
    return { queued: true, id };
  }
  await writes.acknowledge(id);
  if (isApplied(result.code)) return { queued: false, id, data: result.data as DataOf<P>, code: result.code };
  const error = new ApiError(result.code, result.msg, result.data);
  reportError(error, options.silent ?? false);
  throw error;
}
