/**
 * /api/bank/list and /api/bank/add. Bank name is required (SPEC.md §5). Only the last four digits of a
 * card number are kept: the demo never needs the full number, so it never stores it.
 */
import { z } from 'zod';
import { toSeconds } from '../context';
import { fail } from '../errors';
import { handler } from '../router';
import type { Domain } from '../routes';
import { body, newestFirst, text } from '../schema';
import { defineTable } from '../store/port';

export interface BankCardRow {
  id: string;
  memberId: string;
  bankName: string;
  last4: string;
  holder: string;
  createdAt: number;
}

export const bankCards = defineTable<BankCardRow>('bankCards', { member: (c) => c.memberId });

export interface BankCardView {
  id: string;
  bankName: string;
  cardNumber: string;
  holder: string;
  time: number;
}

const MAX_CARDS = 10;

function view(c: BankCardRow): BankCardView {
  return {
    id: c.id,
    bankName: c.bankName,
    cardNumber: `**** **** **** ${c.last4}`,
    holder: c.holder,
    time: toSeconds(c.createdAt),
  };
}

export const bankDomain: Domain = {
  name: 'bank',
  handlers: {
    '/api/bank/list': handler({
      auth: true,
      run: async (ctx): Promise<{ list: BankCardView[] }> => ({
        list: newestFirst(await ctx.tx.query(bankCards, 'member', ctx.member.id)).map(view),
      }),
    }),
    '/api/bank/add': handler({
      auth: true,
      body: body({ bankName: text(80), cardNumber: z.string().max(40), holder: text(80) }),
      run: async (ctx, input): Promise<BankCardView> => {
        const bankName = input.bankName.trim();
        const holder = input.holder.trim();
        const digits = input.cardNumber.replace(/[\s-]/g, '');
        if (!bankName) throw fail(400, 'Bank name is required');
        if (!holder) throw fail(400, 'Card holder is required');
        if (!/^\d{8,30}$/.test(digits)) throw fail(400, 'Card number must be 8 to 30 digits');
        const mine = await ctx.tx.query(bankCards, 'member', ctx.member.id);
        if (mine.length >= MAX_CARDS) throw fail(400, `At most ${MAX_CARDS} cards`);
        if (mine.some((c) => c.bankName === bankName && c.last4 === digits.slice(-4))) {
          throw fail(400, 'This card is already added');
        }
        const row: BankCardRow = {
          id: await ctx.ids.next('bankCard'),
          memberId: ctx.member.id,
          bankName,
          last4: digits.slice(-4),
          holder,
          createdAt: ctx.now,
        };
        ctx.tx.put(bankCards, row);
        return view(row);
      },
    }),
  },
};
