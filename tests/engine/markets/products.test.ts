import { describe, expect, it } from 'vitest';

import { HELP_LOCALES, helpArticles } from '../../../engine/help/handlers';
import { HELP_TOPICS } from '../../../engine/help/types';

import { acct } from '../../../engine/ledger/accounts';

import { units } from '../../../engine/money';

import { DAY, harness, KEY } from './harness';

const LOCALES = ['ja-JP', 'en-US', 'ko-KR', 'vi-VN', 'ru-RU', 'fr-FR', 'fa-IR', 'tr-TR', 'id-ID', 'cs-CZ'];
const LOCALES2 = ['pt-BR', 'es-ES', 'ar-SA', 'it-IT', 'de-DE', 'th-TH', 'zh-CN', 'zh-HK', 'uk-UA', 'pl-PL'];

describe('mining pledges', () => {
  it('P1 a pledge freezes the amount and pays principal plus interest once, when its period in seconds ends', async () => {
    const h = await harness();
    const m = await h.member({ cash: '1000' });
    const list = (await m.call('/api/mining/list')).data.list;
    expect(list[0]).toMatchObject({
      id: '1',
      periodSeconds: 604_800,
      interestRate: '1.20',
      totalPledged: '0',
    });
    const res = await m.call('/api/mining/buy', { id: '1', amount: '500', key: KEY });
    expect(res.code).toBe(0);
    expect(res.data).toMatchObject({ amount: '500', interest: '6', status: 'active' });
    expect(await h.balance(acct.frozen(m.id))).toBe(units(500));
    expect((await m.call('/api/mining/list')).data.list[0]!.totalPledged).toBe('500');
    await h.advance(7 * DAY - 1);
    expect(await h.balance(acct.user(m.id))).toBe(units(500));
    await h.advance(1);
    await h.advance(30 * DAY);
    expect(await h.balance(acct.user(m.id))).toBe(units(1006));
    const orders = (await m.call('/api/mining/orders')).data.list;
    expect(orders[0]!.status).toBe('finished');
    const log = (await m.call('/api/sprofitlog/getlist', { type: 'mining' })).data.list;
    expect(log.map((p) => p.amount)).toEqual(['6']);
    expect(await h.invariants()).toEqual([]);
  });

  it('P2 pledges answer 404, 3010, 3007 and 4011', async () => {
    const h = await harness();
    const m = await h.member({ cash: '200' });
    expect((await m.call('/api/mining/buy', { id: '9', amount: '500', key: KEY })).code).toBe(404);
    expect((await m.call('/api/mining/buy', { id: '1', amount: '99', key: KEY })).code).toBe(3010);
    expect((await m.call('/api/mining/buy', { id: '1', amount: '150', key: 'nope' })).code).toBe(3007);
    expect((await m.call('/api/mining/buy', { id: '1', amount: '300', key: KEY })).code).toBe(4011);
  });
});

describe('referrals', () => {
  it('R2 /api/user/invite lists direct invitees only, with what each earned the inviter', async () => {
    const h = await harness();
    const top = await h.member();
    const mid = await h.member({ cash: '20000', invitedBy: top.id });
    const leaf = await h.member({ cash: '20000', invitedBy: mid.id });
    await mid.call('/api/order/place', { symbol: 'ETH', market: 'spot', side: 'buy', volume: '1' });
    await leaf.call('/api/order/place', { symbol: 'ETH', market: 'spot', side: 'buy', volume: '1' });
    const view = (await top.call('/api/user/invite')).data;
    expect(view.downline).toHaveLength(1);
    expect(view.downline[0]!.id).toBe(mid.id);
    expect(view.shareRate).toBe('20.00');
    expect(view.earnings).toBe(view.downline[0]!.earnings);
    expect(units(0) < BigInt(Math.round(Number(view.earnings) * 1e6))).toBe(true);
    // One level only: the leaf's fees pay mid, never top.
    const midView = (await mid.call('/api/user/invite')).data;
    expect(midView.downline.map((d) => d.id)).toEqual([leaf.id]);
    expect(await h.balance(acct.user(top.id))).toBe(BigInt(Math.round(Number(view.earnings) * 1e6)));
  });
});

describe('bank cards, quick buy, help', () => {
  it('R4 a card needs a bank name (400); only the last four digits are kept', async () => {
    const h = await harness();
    const m = await h.member();
    expect(
      (await m.call('/api/bank/add', { bankName: ' ', cardNumber: '6222020200112233', holder: 'Li' })).code,
    ).toBe(400);
    expect((await m.call('/api/bank/add', { bankName: 'ICBC', cardNumber: '12ab', holder: 'Li' })).code).toBe(
      400,
    );
    const ok = await m.call('/api/bank/add', {
      bankName: 'ICBC',
      cardNumber: '6222 0202 0011 2233',
      holder: 'Li',
    });
    expect(ok.data).toMatchObject({ bankName: 'ICBC', cardNumber: '**** **** **** 2233' });
    expect(
      (await m.call('/api/bank/add', { bankName: 'ICBC', cardNumber: '6222020200112233', holder: 'Li' }))
        .code,
    ).toBe(400);
    expect((await m.call('/api/bank/list')).data.list).toHaveLength(1);
  });

  it('S6 quick buy quotes a visible 1.5% spread and credits exactly the USDT bought', async () => {
    const h = await harness();
    const m = await h.member();
    const quote = (await m.call('/api/buycoin/quote', { amount: '100', currency: 'cny' })).data;
    expect(quote).toMatchObject({ referenceRate: '7.2', rate: '7.308', spread: '1.50', total: '730.8' });
    expect((await m.call('/api/buycoin/buy', { amount: '100', currency: 'CNY' })).code).toBe(0);
    expect(await h.balance(acct.user(m.id))).toBe(units(100));
    expect((await m.call('/api/buycoin/quote', { amount: '5', currency: 'USD' })).code).toBe(3010);
    expect((await m.call('/api/buycoin/quote', { amount: '50', currency: 'XXX' })).code).toBe(400);
    expect(await h.invariants()).toEqual([]);
  });

  it('R5 help has the six topics in all twenty locales, and unknown languages fall back to en-US', async () => {
    const h = await harness();
    const m = await h.member();
    expect([...HELP_LOCALES].sort()).toEqual([...LOCALES, ...LOCALES2].sort());
    const english = await helpArticles('en-US');
    for (const lang of [...LOCALES, ...LOCALES2]) {
      const res = (await m.call('/api/help/list', { lang })).data;
      expect(res.lang).toBe(lang);
      expect(res.list.map((a) => a.topic)).toEqual([...HELP_TOPICS]);
      for (const a of res.list) expect(a.content.length).toBeGreaterThan(40);
      if (lang !== 'en-US') expect(res.list[0]!.content).not.toBe(english.register[1]);
    }
    expect((await m.call('/api/help/list', { lang: 'xx' })).data.lang).toBe('en-US');
    expect((await m.call('/api/help/list', { lang: 'de' })).data.lang).toBe('de-DE');
  });
});
