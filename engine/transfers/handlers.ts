/**
 * Internal transfers: POST /api/transfer/submit and /api/transfer/list. No security key (SPEC.md §1),
 * no fee, credited at once (internal, no chain). Checks in order: amount (400, 3006), recipient found
 * (3000) and unambiguous and active (3001), not oneself (222), recipient VIP (3002), receive limits
 * (3003, 3004), sender balance (3005). 3005 rather than 4011 because the catalogue lists it with the
 * transfer codes; 4011 stays with purchases.
 */
import { z } from 'zod';
import { findMembers } from '../accounts/lookup';
import { effectiveVip, vipName, type MemberRow } from '../accounts/tables';
import { maskUsername } from '../referral/view';
import { addHit, recentHits } from '../security/rateLimit';
import type { AuthCtx } from '../context';
import { toSeconds } from '../context';
import { Codes, fail } from '../errors';
import { counters } from '../ids';
import { acct, USDT } from '../ledger/accounts';
import { balanceId, balances } from '../ledger/tables';
import { formatAmount, type Micro } from '../money';
import { handler } from '../router';
import type { Domain } from '../routes';
import { amount, body, listShape, newestFirst, paginate } from '../schema';
import { seqKind } from '../sync/tables';
import { prefetchSecondFactor, requireSecondFactor, secondFactorShape } from '../twofactor/require';
import { checkMinimum, checkReceiveLimits, utcDay, utcMonth } from './rules';
import { receiveTotals, transfers, type TransferRow } from './tables';

function view(row: TransferRow, memberId: string) {
  const out = row.fromId === memberId;
  return {
    id: row.id,
    direction: out ? ('out' as const) : ('in' as const),
    account: out ? row.toUsername : row.fromUsername,
    from: row.fromUsername,
    to: row.toUsername,
    amount: row.amount,
    status: row.status,
    createdAt: toSeconds(row.createdAt),
  };
}

export type TransferView = ReturnType<typeof view>;

async function total(ctx: AuthCtx, id: string): Promise<Micro> {
  const row = await ctx.tx.get(receiveTotals, id);
  return row ? BigInt(row.amount) : 0n;
}

async function recipientOf(ctx: AuthCtx, account: string): Promise<MemberRow> {
  const found = await findMembers(ctx.tx, account);
  if (found.length === 0) throw fail(Codes.accountNotFound, 'Account does not exist');
  const [recipient] = found;
  if (found.length > 1 || !recipient || recipient.status !== 'active') {
    throw fail(Codes.receiverAbnormal, 'The receiving account is abnormal: contact customer service');
  }
  return recipient;
}

export const submitTransfer = handler({
  auth: true,
  body: body({ account: z.string().max(300), amount, ...secondFactorShape }),
  // The recipient and the sender's security row (the one the UserId header names; requireSecondFactor
  // reads it) are read while the session is checked: one statement with the session's on SQL.
  prefetch: (tx, input, claimed) =>
    Promise.all([findMembers(tx, input.account), prefetchSecondFactor(tx, claimed)]),
  run: async (ctx, input) => {
    const tooSmall = checkMinimum(ctx.config, input.amount);
    if (tooSmall) throw tooSmall;
    if (ctx.member.status !== 'active') throw fail(Codes.accountAbnormal, 'This account is abnormal');
    const recipient = await recipientOf(ctx, input.account);
    if (recipient.id === ctx.member.id) throw fail(Codes.transferSelf, 'You cannot transfer to yourself');
    // No security key (SPEC.md §1), but a member with two-factor authentication confirms with a code.
    await requireSecondFactor(ctx, ctx.member, 'transfer', input);

    const dayId = `${recipient.id}:d:${utcDay(ctx.now)}`;
    const monthId = `${recipient.id}:m:${utcMonth(ctx.now)}`;
    // Every row the checks and the ledger read next, the transfer's id and its journal entry's, at once (one
    // round trip on SQL). A refused transfer leaves gaps in the ids, as any rolled-back unit does. The two
    // members' change-log counters (engine/sync/capture.ts reads them just before the commit) come with
    // them: same snapshot, one statement and one round trip less.
    const [id, entryId] = await Promise.all([
      ctx.ids.next('transfer'),
      ctx.ids.next('journal'),
      ctx.tx.prefetch([
        [receiveTotals, dayId],
        [receiveTotals, monthId],
        [balances, balanceId(acct.user(ctx.member.id), USDT)],
        [balances, balanceId(acct.user(recipient.id), USDT)],
        [counters, seqKind(ctx.member.id)],
        [counters, seqKind(recipient.id)],
      ]),
    ]);
    const today = await total(ctx, dayId);
    const month = await total(ctx, monthId);
    const limited = checkReceiveLimits(
      ctx.config,
      effectiveVip(recipient, ctx.now),
      today,
      month,
      input.amount,
    );
    if (limited) throw limited;

    await ctx.ledger.move(acct.user(ctx.member.id), acct.user(recipient.id), input.amount, {
      kind: 'transfer',
      ref: `transfer:${id}`,
      insufficientCode: Codes.transferInsufficient,
      entryId,
    });
    ctx.tx.put(receiveTotals, { id: dayId, amount: (today + input.amount).toString() });
    ctx.tx.put(receiveTotals, { id: monthId, amount: (month + input.amount).toString() });
    const row: TransferRow = {
      id,
      fromId: ctx.member.id,
      toId: recipient.id,
      fromUsername: ctx.member.username,
      toUsername: recipient.username,
      account: input.account.trim(),
      amount: formatAmount(input.amount),
      status: 'success',
      createdAt: ctx.now,
    };
    ctx.tx.put(transfers, row);
    return view(row, ctx.member.id);
  },
});

/**
 * POST /api/transfer/recipient: who a transfer would reach, before the confirmation (issue 27 item 4): the
 * recipient's masked username and level in force, or the code the transfer itself would answer (3000, 3001,
 * 222, 3002). Never a full name. Each look-up counts, found or not: `recipientLookupLimit` per
 * `recipientLookupWindowMs` per member, then 429, so the call cannot list who has an account.
 */
export const recipientPreview = handler({
  auth: true,
  body: body({ account: z.string().max(300) }),
  run: async (ctx, input) => {
    const key = `recipient:${ctx.member.id}`;
    const { recipientLookupLimit: limit, recipientLookupWindowMs: window } = ctx.config;
    if ((await recentHits(ctx.tx, key, ctx.now, window)) >= limit) {
      throw fail(Codes.tooManyRequests, 'Too many look-ups: try again in a few minutes');
    }
    // Counted whether the look-up finds someone or not (a refused call rolls back its own writes).
    ctx.onFailure(async (after) => addHit(after.tx, key, after.now, window));
    const recipient = await recipientOf(ctx, input.account);
    if (recipient.id === ctx.member.id) throw fail(Codes.transferSelf, 'You cannot transfer to yourself');
    const level = effectiveVip(recipient, ctx.now);
    if (level < 1) throw fail(Codes.receiverNotVip, 'The other party has not activated VIP');
    await addHit(ctx.tx, key, ctx.now, window);
    return { name: maskUsername(recipient.username), vip: vipName(level) };
  },
});

export const listTransfers = handler({
  auth: true,
  body: body({ ...listShape, direction: z.enum(['in', 'out']).optional() }),
  run: async (ctx, input) => {
    const rows = newestFirst(await ctx.tx.query(transfers, 'party', ctx.member.id))
      .map((r) => view(r, ctx.member.id))
      .filter((v) => !input.direction || v.direction === input.direction);
    return paginate(rows, input);
  },
});

export const transfersDomain: Domain = {
  name: 'transfers',
  handlers: {
    '/api/transfer/submit': submitTransfer,
    '/api/transfer/list': listTransfers,
    '/api/transfer/recipient': recipientPreview,
  },
};
