import { describe, expect, it } from 'vitest';
import { parseAmount as m } from '../money';
import { inviteeView, inviteSummary, maskUsername, shareRate } from './view';

describe('the invitation summary (R1-R3; worked example)', () => {
  it('masks names, lists the newest invitee first and sums the shares of each', () => {
    expect(maskUsername('alice123')).toBe('al***23');
    expect(maskUsername('bob')).toBe('b***');
    expect(shareRate(2000)).toBe('20.00');
    expect(shareRate(1250)).toBe('12.50');
    const alice = inviteeView({ id: '5', username: 'alice123', vip: 1, createdAt: 1_700_000_000_000 });
    const bob = inviteeView({ id: '8', username: 'bob', vip: 0, createdAt: 1_700_000_500_000 });
    expect(alice).toEqual({ id: '5', username: 'al***23', vip: 'vip1', joinedAt: 1_700_000_000 });
    const view = inviteSummary(
      'ABC123',
      '20.00',
      [alice, bob],
      [
        { ref: '5', amount: m('0.12') },
        { ref: '5', amount: m('0.000001') },
        // A share from someone no longer listed still counts in the total.
        { ref: '99', amount: m('1') },
      ],
    );
    expect(view).toEqual({
      inviteCode: 'ABC123',
      shareRate: '20.00',
      downline: [
        { ...bob, earnings: '0' },
        { ...alice, earnings: '0.120001' },
      ],
      earnings: '1.120001',
    });
  });
});
