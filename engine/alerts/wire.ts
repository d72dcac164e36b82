/**
 * Wire types of price alerts (issue 26 item 4; API.md "Price alerts"), merged into ContractMap
 * (engine/contract.ts). Amounts are decimal strings; times are Unix seconds.
 */
import type { AlertView } from './view';

export type { AlertView } from './view';
export type { AlertKind, AlertStatus } from './tables';

/** An alert to set: `above`/`below` with `price`, or `move` with `percent` (either way from now's price). */
export type AlertCreateBody =
  | { symbol: string; kind: 'above' | 'below'; price: string }
  | { symbol: string; kind: 'move'; percent: string };

export interface AlertsContract {
  '/api/alert/create': { body: AlertCreateBody; data: AlertView };
  '/api/alert/list': {
    body: { page?: number; limit?: number; status?: 'active' | 'fired' | 'cancelled' };
    data: { list: AlertView[]; total: number; page: number; limit: number };
  };
  '/api/alert/cancel': { body: { id: string }; data: AlertView };
}
