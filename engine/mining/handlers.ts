/**
 * /api/mining/list, /api/mining/buy and /api/mining/orders, and the maturity job. A pledge freezes the
 * member's cash (one hold); at the end of the period the hold is released and the interest is paid from
 * house:mining (the simulated pool), with a `mining` profit-log entry, in one unit of work.
 */
import { z } from 'zod';
import { toSeconds } from '../context';
import type { ListResult } from '../contract';
import { Codes, fail } from '../errors';
import { addProfit } from '../finance/service';
import { idField } from '../finance/handlers';
import { acct } from '../ledger';
import { formatAmount, mulDiv } from '../money';
import { handler } from '../router';
import type { Domain } from '../routes';
import { amount, body, listShape, newestFirst, paginate } from '../schema';
import { requireKey } from '../security/key';
import { defineTable } from '../store/port';
import { findMachine, MACHINES, type MachineSpec } from './catalogue';

export interface PledgeRow {
  id: string;
  memberId: string;
  machineId: string;
  name: string;
  amount: string;
  interest: string;
  periodSeconds: number;
  startAt: number;
  endAt: number;
  holdId: string;
  status: 'active' | 'finished';
}

export const pledges = defineTable<PledgeRow>('pledges', {
  member: (p) => p.memberId,
  active: (p) => (p.status === 'active' ? p.machineId : null),
});

const MATURE_JOB = 'mining.mature';

function machineView(m: MachineSpec, totalPledged: bigint) {
  return {
    id: m.id,
    name: m.name,
    interestRate: `${Math.floor(m.interestBps / 100)}.${String(m.interestBps % 100).padStart(2, '0')}`,
    periodSeconds: m.periodSeconds,
    min: formatAmount(m.min),
    max: formatAmount(m.max),
    totalPledged: formatAmount(totalPledged),
    currency: 'USDT',
  };
}

export type MachineView = ReturnType<typeof machineView>;

export function pledgeView(p: PledgeRow) {
  return {
    id: p.id,
    machineId: p.machineId,
    name: p.name,
    amount: formatAmount(BigInt(p.amount)),
    interest: formatAmount(BigInt(p.interest)),
    periodSeconds: p.periodSeconds,
    startTime: toSeconds(p.startAt),
    endTime: toSeconds(p.endAt),
    status: p.status,
  };
}

export type PledgeView = ReturnType<typeof pledgeView>;

export const miningDomain: Domain = {
  name: 'mining',
  handlers: {
    '/api/mining/list': handler({
      auth: true,
      run: async (ctx): Promise<{ list: MachineView[] }> => {
        const list: MachineView[] = [];
        for (const m of MACHINES) {
          const active = await ctx.tx.query(pledges, 'active', m.id);
          list.push(
            machineView(
              m,
              active.reduce((s, p) => s + BigInt(p.amount), 0n),
            ),
          );
        }
        return { list };
      },
    }),
    '/api/mining/buy': handler({
      auth: true,
      body: body({ id: idField, amount, key: z.string().max(200) }),
      run: async (ctx, input): Promise<PledgeView> => {
        const machine = findMachine(input.id);
        if (!machine) throw fail(Codes.notFound, 'Mining machine not found');
        if (input.amount < machine.min || input.amount > machine.max) {
          throw fail(
            Codes.purchaseAmountMismatch,
            'Amount is outside the minimum and maximum of this pledge',
          );
        }
        await requireKey(ctx, ctx.member, input.key);
        const id = await ctx.ids.next('pledge');
        const hold = await ctx.ledger.hold({
          memberId: ctx.member.id,
          amount: input.amount,
          reason: 'mining',
          ref: `pledge:${id}`,
          insufficientCode: Codes.insufficientBalance,
        });
        const row: PledgeRow = {
          id,
          memberId: ctx.member.id,
          machineId: machine.id,
          name: machine.name,
          amount: input.amount.toString(),
          interest: mulDiv(input.amount, BigInt(machine.interestBps), 10_000n, 'floor').toString(),
          periodSeconds: machine.periodSeconds,
          startAt: ctx.now,
          endAt: ctx.now + machine.periodSeconds * 1000,
          holdId: hold.id,
          status: 'active',
        };
        ctx.tx.put(pledges, row);
        await ctx.jobs.schedule(MATURE_JOB, row.endAt, { pledgeId: id });
        return pledgeView(row);
      },
    }),
    '/api/mining/orders': handler({
      auth: true,
      body: body({ ...listShape, status: z.enum(['active', 'finished']).optional() }),
      run: async (ctx, input): Promise<ListResult<PledgeView>> => {
        const rows = (await ctx.tx.query(pledges, 'member', ctx.member.id)).filter(
          (p) => !input.status || p.status === input.status,
        );
        return paginate(newestFirst(rows).map(pledgeView), input);
      },
    }),
  },
  jobs: {
    [MATURE_JOB]: async (ctx, payload) => {
      const pledgeId = (payload as { pledgeId?: unknown } | null)?.pledgeId;
      if (typeof pledgeId !== 'string') throw new TypeError('mining.mature: bad payload');
      const pledge = await ctx.tx.get(pledges, pledgeId);
      if (!pledge || pledge.status !== 'active') return;
      await ctx.ledger.release(pledge.holdId);
      const interest = BigInt(pledge.interest);
      if (interest > 0n) {
        await ctx.ledger.move(acct.house('mining'), acct.user(pledge.memberId), interest, {
          kind: 'mining:interest',
          ref: `pledge:${pledge.id}`,
        });
        await addProfit(ctx, {
          memberId: pledge.memberId,
          type: 'mining',
          amount: interest,
          ref: pledge.id,
          note: `${pledge.name} pledge interest`,
        });
      }
      ctx.tx.put(pledges, { ...pledge, status: 'finished' });
      ctx.emit({ type: 'order', data: { memberId: pledge.memberId, kind: 'mining', id: pledge.id } });
    },
  },
};
