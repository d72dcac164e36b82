import { describe, expect, it } from 'vitest';
import { deviceName } from './agent';
import { placeOf } from './network';

describe('placeOf: the network of an address, no lookup', () => {
  it.each([
    ['203.0.113.7', 'internet', '203.0.113.0/24'],
    ['::ffff:198.51.100.250', 'internet', '198.51.100.0/24'],
    ['127.0.0.1', 'loopback', '127.0.0.0/24'],
    ['10.1.2.3', 'private', '10.1.2.0/24'],
    ['172.20.0.9', 'private', '172.20.0.0/24'],
    ['172.32.0.9', 'internet', '172.32.0.0/24'],
    ['192.168.0.4', 'private', '192.168.0.0/24'],
    ['100.64.3.3', 'private', '100.64.3.0/24'],
    ['2001:db8:1:2::9', 'internet', '2001:db8:1::/48'],
    ['::1', 'loopback', '0:0:0::/48'],
    ['fd12:3456:789a::1', 'private', 'fd12:3456:789a::/48'],
    ['fe80::1%eth0', 'private', 'fe80:0:0::/48'],
  ])('%s is %s, network %s', (ip, kind, network) => {
    expect(placeOf(ip, false)).toEqual({ kind, network });
  });

  it.each(['', 'not-an-ip', '1.2.3', '256.1.1.1', '1::2::3', '12345::'])('"%s" is unknown', (ip) => {
    expect(placeOf(ip, false)).toEqual({ kind: 'unknown', network: null });
  });

  it("the demo engine on the member's own device has no network", () => {
    expect(placeOf(undefined, true)).toEqual({ kind: 'device', network: null });
  });
});

describe('deviceName: browser and system from a User-Agent', () => {
  it.each([
    [
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
      'Chrome 131 on Android',
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      'Safari 17 on iOS',
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 Edg/130.0.2849.80',
      'Edge 130 on Windows',
    ],
    ['Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0', 'Firefox 133 on Linux'],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
      'Safari 18 on macOS',
    ],
    [
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/140.0.0.0 Safari/537.36',
      'Chrome 140 on Linux',
    ],
    ['curl/8.5.0', null],
    ['', null],
  ])('%s', (ua, name) => {
    expect(deviceName(ua)).toBe(name);
  });
});
