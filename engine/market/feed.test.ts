import { describe, expect, it } from 'vitest';
import { feedMessagesBetween } from './feed';
import { MarketSim } from './market';
import { findSymbol } from './symbols';

const sim = new MarketSim(99);
const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);

describe('market feed', () => {
  it('M8 one second of feed: one ticker, Curr and Kline, ten books, in time order', () => {
    const messages = feedMessagesBetween(sim, T0, T0 + 1000, [{ symbol: 'ETH/USDT', interval: '5m' }]);
    const count = (type: string): number => messages.filter((m) => m.message.type === type).length;
    expect(count('ticker24hr')).toBe(1);
    expect(count('Curr')).toBe(1);
    expect(count('Kline')).toBe(1);
    expect(count('getQuota')).toBe(10);
    const times = messages.map((m) => m.at);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    const kline = messages.find((m) => m.message.type === 'Kline')!.message;
    if (kline.type !== 'Kline') throw new Error('unreachable');
    expect(kline.data.symbol).toBe('ETH/USDT');
    expect(kline.data.list[0]!.close).toBe(sim.quote(findSymbol('ETH')!, T0 + 1000).latest);
  });

  it('M8 consecutive calls neither repeat nor skip a message', () => {
    const whole = feedMessagesBetween(sim, T0 + 500, T0 + 1500);
    const split = [
      ...feedMessagesBetween(sim, T0 + 500, T0 + 730),
      ...feedMessagesBetween(sim, T0 + 730, T0 + 1500),
    ];
    expect(split).toEqual(whole);
  });

  it('M8 after a long pause only the latest messages are sent', () => {
    const messages = feedMessagesBetween(sim, T0, T0 + 3_600_000);
    expect(messages.filter((m) => m.message.type === 'ticker24hr')).toHaveLength(3);
    expect(messages.filter((m) => m.message.type === 'getQuota')).toHaveLength(10);
    expect(messages[messages.length - 1]!.at).toBe(T0 + 3_600_000);
  });
});
