/**
 * VIP: POST /api/Viplist/getlist, Buyvip, refund, records and the `vip.expire` job that ends a VIP1 trial.
 * Purchases need the security key (requireKey: 3007 / 430) and answer 4011 when cash is short.
 */
import { z } from 'zod';
import { members, effectiveVip, vipName, type MemberRow } from '../accounts/tables';
import { toSeconds, type AuthCtx, type Ctx } from '../context';
import { Codes } from '../errors';
import { acct } from '../ledger/accounts';
import { formatAmount } from '../money';
import { handler } from '../router';
import type { Domain } from '../routes';
import { body, listShape, newestFirst, paginate } from '../schema';
import { requireKey } from '../security/key';
import { checkRefund, planPurchase, VIP_EXPIRED_MESSAGE } from './rules';
import { vipRecords, type VipRecordRow } from './tables';

const VIP_HOLD = 'vip';
const TRIAL_FEES = acct.platform('vip-trial-fees');

const levelInput = z
  .union([z.number().int(), z.string().regex(/^(vip)?\d$/i, 'must be 1-6 or "vip1"-"vip6"')])
  .transform((v) => (typeof v === 'number' ? v : Number(v.replace(/^vip/i, ''))))
  .pipe(z.number().int().min(1, 'must be 1-6').max(6, 'must be 1-6'));

async function record(ctx: Ctx, row: Omit<VipRecordRow, 'id' | 'createdAt'>): Promise<void> {
  ctx.tx.put(vipRecords, { id: await ctx.ids.next('vipRecord'), createdAt: ctx.now, ...row });
}

/** Ends a VIP1 trial that is past its expiry (idempotent: a member no longer on that trial is left alone). */
async function expireTrial(ctx: Ctx, member: MemberRow): Promise<MemberRow> {
  if (member.vip !== 1 || member.vipExpiresAt === null || member.vipExpiresAt > ctx.now) return member;
  const next: MemberRow = { ...member, vip: 0, vipExpiresAt: null };
  ctx.tx.put(members, next);
  await record(ctx, {
    memberId: member.id,
    type: 'expire',
    fromLevel: 1,
    toLevel: 0,
    amount: '0',
    message: VIP_EXPIRED_MESSAGE,
  });
  ctx.emit({ type: 'vip', data: { memberId: member.id, vip: 'vip0', message: VIP_EXPIRED_MESSAGE } });
  return next;
}

async function heldDeposit(ctx: Ctx, memberId: string): Promise<bigint> {
  return (await ctx.ledger.activeHolds(memberId, VIP_HOLD)).reduce((sum, h) => sum + BigInt(h.amount), 0n);
}

const getList = handler({
  auth: true,
  run: async (ctx) => {
    const current = effectiveVip(ctx.member, ctx.now);
    const last = newestFirst(await ctx.tx.query(vipRecords, 'member', ctx.member.id))[0];
    return {
      current: vipName(current),
      expiresAt:
        current === 1 && ctx.member.vipExpiresAt !== null ? toSeconds(ctx.member.vipExpiresAt) : null,
      deposit: formatAmount(await heldDeposit(ctx, ctx.member.id)),
      notice: current === 0 && (last?.type === 'expire' || ctx.member.vip === 1) ? VIP_EXPIRED_MESSAGE : null,
      list: ctx.config.vipLevels.map((l) => ({
        level: l.level,
        name: vipName(l.level),
        deposit: formatAmount(l.deposit),
        dailyLimit: l.dailyReceive === null ? null : formatAmount(l.dailyReceive),
        monthlyLimit: l.monthlyReceive === null ? null : formatAmount(l.monthlyReceive),
        trial: l.level === 1,
        refundable: l.level >= 2,
        validDays: l.level === 1 ? Math.floor(ctx.config.vipTrialMs / 86_400_000) : null,
        current: l.level === current,
      })),
    };
  },
});

const buy = handler({
  auth: true,
  body: body({ level: levelInput, key: z.string().max(512) }),
  run: async (ctx: AuthCtx, input) => {
    const member = await expireTrial(ctx, ctx.member);
    const current = effectiveVip(member, ctx.now);
    const plan = planPurchase(ctx.config, current, await heldDeposit(ctx, member.id), input.level);
    if (plan instanceof Error) throw plan;
    await requireKey(ctx, member, input.key);
    const fresh = (await ctx.tx.get(members, member.id)) ?? member;
    if (plan.kind === 'trial') {
      const ref = `vip:${member.id}:trial:${ctx.now}`;
      await ctx.ledger.move(acct.user(member.id), TRIAL_FEES, plan.fee, {
        kind: 'vip.trial',
        ref,
        insufficientCode: Codes.insufficientBalance,
      });
      const expiresAt = ctx.now + ctx.config.vipTrialMs;
      ctx.tx.put(members, { ...fresh, vip: 1, vipExpiresAt: expiresAt });
      await ctx.jobs.schedule('vip.expire', expiresAt, { memberId: member.id, expiresAt });
      await record(ctx, {
        memberId: member.id,
        type: 'trial',
        fromLevel: current,
        toLevel: 1,
        amount: formatAmount(plan.fee),
        message: null,
      });
      return { vip: 'vip1', deposit: formatAmount(plan.fee), expiresAt: toSeconds(expiresAt) };
    }
    if (plan.hold > 0n) {
      await ctx.ledger.hold({
        memberId: member.id,
        amount: plan.hold,
        reason: VIP_HOLD,
        ref: `vip:${member.id}:${input.level}`,
        insufficientCode: Codes.insufficientBalance,
      });
    }
    ctx.tx.put(members, { ...fresh, vip: input.level, vipExpiresAt: null });
    await record(ctx, {
      memberId: member.id,
      type: current >= 2 ? 'upgrade' : 'buy',
      fromLevel: current,
      toLevel: input.level,
      amount: formatAmount(plan.hold),
      message: null,
    });
    return { vip: vipName(input.level), deposit: formatAmount(plan.deposit) };
  },
});

const refund = handler({
  auth: true,
  body: body({ level: levelInput }),
  run: async (ctx, input) => {
    const current = effectiveVip(ctx.member, ctx.now);
    const refused = checkRefund(current, input.level);
    if (refused) throw refused;
    let released = 0n;
    for (const hold of await ctx.ledger.activeHolds(ctx.member.id, VIP_HOLD)) {
      await ctx.ledger.release(hold.id);
      released += BigInt(hold.amount);
    }
    ctx.tx.put(members, { ...ctx.member, vip: 0, vipExpiresAt: null });
    await record(ctx, {
      memberId: ctx.member.id,
      type: 'refund',
      fromLevel: current,
      toLevel: 0,
      amount: formatAmount(released),
      message: null,
    });
    return { vip: 'vip0', refunded: formatAmount(released) };
  },
});

const records = handler({
  auth: true,
  body: body(listShape),
  run: async (ctx, input) => {
    const rows = newestFirst(await ctx.tx.query(vipRecords, 'member', ctx.member.id)).map((r) => ({
      id: r.id,
      type: r.type,
      from: vipName(r.fromLevel),
      to: vipName(r.toLevel),
      amount: r.amount,
      message: r.message,
      createdAt: toSeconds(r.createdAt),
    }));
    return paginate(rows, input);
  },
});

async function expireJob(ctx: Ctx, payload: unknown): Promise<void> {
  const p = payload as { memberId?: unknown; expiresAt?: unknown } | null;
  if (typeof p?.memberId !== 'string') return;
  const member = await ctx.tx.get(members, p.memberId);
  if (member && member.vipExpiresAt === p.expiresAt) await expireTrial(ctx, member);
}

export const vipDomain: Domain = {
  name: 'vip',
  handlers: {
    '/api/Viplist/getlist': getList,
    '/api/Viplist/Buyvip': buy,
    '/api/Viplist/refund': refund,
    '/api/Viplist/records': records,
  },
  jobs: { 'vip.expire': expireJob },
};
