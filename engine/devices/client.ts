/**
 * Who is calling, as far as a member's device list needs: the app's device id (digested), a device name from
 * the User-Agent, and the network of the client's address (network.ts).
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { Ctx } from '../context';
import { deviceName } from './agent';
import { placeOf, type Place } from './network';

/** Set by the server from the connection (or its trusted proxies), never by the client: server/http.ts. */
export const CLIENT_IP_HEADER = 'x-strata-client-ip';
export const DEVICE_ID_HEADER = 'x-device-id';
/** Set by the server, only when the request's Origin is the server's own (a page it serves): server/http.ts. */
export const PAGE_ORIGIN_HEADER = 'x-strata-page-origin';

export interface ClientInfo extends Place {
  /** sha256 of the app's device id; null when the call carries none (every login is then a new device). */
  deviceKey: string | null;
  device: string | null;
}

export function clientOf(ctx: Ctx): ClientInfo {
  const id = ctx.headers[DEVICE_ID_HEADER]?.trim() ?? '';
  const ip = ctx.headers[CLIENT_IP_HEADER];
  const deviceKey = /^[A-Za-z0-9_-]{16,128}$/.test(id)
    ? bytesToHex(sha256(utf8ToBytes(`strata-device:${id}`))).slice(0, 40)
    : null;
  return {
    deviceKey,
    device: deviceName(ctx.headers['user-agent']),
    ...placeOf(ip, ip === undefined && ctx.config.demo),
  };
}
