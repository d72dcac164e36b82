/**
 * An approximate place from the client's IP address without asking anyone: the network it belongs to
 * (an IPv4 /24 or an IPv6 /48, the granularity at which providers hand out addresses to one site) and what
 * kind of network that is. No geolocation database and no third-party lookup: the member sees "Network
 * 203.0.113.0/24 (internet)" and recognises their home or office network, or sees that it is not theirs.
 *
 * The address comes from the server only (header `x-strata-client-ip`, set from the socket or the trusted
 * proxies and overwritten on every request: server/http.ts); the demo's engine runs on the member's own device
 * and has no network at all ('device').
 */
export type PlaceKind = 'device' | 'loopback' | 'private' | 'internet' | 'unknown';

export interface Place {
  kind: PlaceKind;
  /** "203.0.113.0/24", "2001:db8:1::/48"; null when there is no address. */
  network: string | null;
}

function ipv4(address: string): number[] | null {
  const parts = address.split('.');
  if (parts.length !== 4) return null;
  const bytes = parts.map((p) => (/^\d{1,3}$/.test(p) ? Number(p) : NaN));
  return bytes.every((b) => Number.isInteger(b) && b <= 255) ? bytes : null;
}

/** The eight 16-bit groups of an IPv6 address, or null. */
function ipv6(address: string): number[] | null {
  if (!/^[0-9a-f:]+$/i.test(address) || address.split('::').length > 2) return null;
  const [head = '', tail] = address.split('::');
  const groups = (s: string) => (s ? s.split(':') : []);
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const missing = 8 - left.length - right.length;
  if ((tail === undefined && missing !== 0) || missing < 0) return null;
  const all = [...left, ...Array<string>(missing).fill('0'), ...right];
  if (all.some((g) => g.length === 0 || g.length > 4)) return null;
  return all.map((g) => parseInt(g, 16));
}

function v4Kind([a = 0, b = 0]: number[]): PlaceKind {
  if (a === 127) return 'loopback';
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return 'private';
  if (a === 169 && b === 254) return 'private';
  if (a === 100 && b >= 64 && b <= 127) return 'private';
  return 'internet';
}

export function placeOf(ip: string | undefined, onDevice: boolean): Place {
  if (onDevice) return { kind: 'device', network: null };
  const address =
    ip
      ?.trim()
      .replace(/^\[|\]$/g, '')
      .split('%')[0] ?? '';
  if (!address) return { kind: 'unknown', network: null };
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  const v4 = ipv4(mapped ?? address);
  if (v4) return { kind: v4Kind(v4), network: `${v4[0]}.${v4[1]}.${v4[2]}.0/24` };
  const v6 = ipv6(address);
  if (!v6) return { kind: 'unknown', network: null };
  const [g0 = 0, g1 = 0, g2 = 0] = v6;
  const kind: PlaceKind = v6.every((g, i) => g === (i === 7 ? 1 : 0))
    ? 'loopback'
    : (g0 & 0xfe00) === 0xfc00 || (g0 & 0xffc0) === 0xfe80
      ? 'private'
      : 'internet';
  return { kind, network: `${[g0, g1, g2].map((g) => g.toString(16)).join(':')}::/48` };
}
