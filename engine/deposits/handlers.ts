/**
 * Deposits (API.md): the member's exclusive address, on-chain payments credited after their confirmations
 * (demo chain), manual submissions credited by the simulated reviewer (demo) or an operator (live), and
 * the member's deposit records.
 * /api/Recharges/uploads (the payment proof) is served by the accounts domain's upload handler.
 */
import { z } from 'zod';
import { ownUpload } from '../accounts/uploads';
import { chainOf, memberAddress, walletOf } from '../chain/domain';
import { networkSchema, requireAddress } from '../chain/schema';
import { chainTxs } from '../chain/tables';
import type { AuthCtx } from '../context';
import { toSeconds } from '../context';
import { Codes, fail } from '../errors';
import { formatAmount } from '../money';
import { handler } from '../router';
import type { Domain } from '../routes';
import { amount, body, listBody, newestFirst, paginate } from '../schema';
import { confirmDepositJob, DEPOSIT_CONFIRM_JOB, DEPOSIT_REVIEW_JOB, reviewDepositJob } from './credit';
import { watchPayment } from './incoming';
import { checkTxid } from './rules';
import { deposits, type DepositRow } from './tables';
import type { ChainSendResult, DepositAddress, DepositRecord } from './types';
import { depositView } from './view';

function positive(value: bigint): bigint {
  if (value <= 0n) throw fail(400, 'Invalid request: amount must be greater than zero');
  return value;
}

/** D3: a transaction hash already credited or awaiting review cannot be submitted again. */
async function refuseKnownTxid(ctx: AuthCtx, txid: string): Promise<void> {
  const claimed = (await ctx.tx.query(deposits, 'txid', txid)).some((d) => d.status !== 'rejected');
  const owned = (await ctx.tx.query(chainTxs, 'hash', txid)).some((t) => t.recordId !== null);
  if (claimed || owned) throw fail(400, 'This transaction has already been credited or submitted');
}

const addressHandler = handler({
  auth: true,
  body: body({ network: networkSchema }),
  run: async (ctx, input): Promise<DepositAddress> => {
    const row = await memberAddress(ctx, ctx.member.id, input.network);
    return {
      network: input.network,
      address: row.address,
      // A demo key's address (docs/SERVER.md "Key custody"): the app must never present it as real.
      demo: ctx.config.demo || (await walletOf(ctx)).demo,
      currency: 'USDT',
      confirmations: ctx.config.networks[input.network].confirmations,
    };
  },
});

const submitHandler = handler({
  auth: true,
  body: body({
    network: networkSchema,
    amount,
    txid: z.string().max(100).optional(),
    proof: z.string().max(200).optional(),
  }),
  run: async (ctx, input): Promise<DepositRecord> => {
    const value = positive(input.amount);
    const txidInput = input.txid?.trim() ?? '';
    const proofInput = input.proof?.trim() ?? '';
    if (txidInput === '' && proofInput === '') {
      throw fail(400, 'Give the transaction hash or upload a payment proof');
    }
    let txid: string | null = null;
    if (txidInput !== '') {
      const check = checkTxid(input.network, txidInput);
      if (!check.ok) throw fail(400, check.message);
      await refuseKnownTxid(ctx, check.txid);
      txid = check.txid;
    }
    if (proofInput !== '' && !(await ownUpload(ctx, ctx.member.id, proofInput))) {
      throw fail(400, 'Payment proof not found: upload it with /api/Recharges/uploads first');
    }
    const row: DepositRow = {
      id: await ctx.ids.next('deposit'),
      memberId: ctx.member.id,
      currency: 'USDT',
      network: input.network,
      // A manual deposit is paid to the platform's published address (site config).
      address: (await walletOf(ctx)).book.platform(input.network),
      amount: value.toString(),
      source: 'manual',
      status: 'pending',
      txid,
      proof: proofInput === '' ? null : proofInput,
      includedHeight: null,
      required: null,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    };
    ctx.tx.put(deposits, row);
    // Demo: the simulated reviewer credits it later. Live: it stays pending until an operator decides.
    if (ctx.counterparties.reviewer) {
      await ctx.jobs.schedule(DEPOSIT_REVIEW_JOB, ctx.now + ctx.config.rechargeReviewMs, {
        depositId: row.id,
      });
    }
    ctx.emit({ type: 'deposit', data: { memberId: row.memberId, id: row.id, status: row.status } });
    return depositView(ctx, row);
  },
});

const listHandler = handler({
  auth: true,
  body: listBody,
  run: async (ctx, input) => {
    const rows = newestFirst(await ctx.tx.query(deposits, 'member', ctx.member.id));
    const page = paginate(rows, input);
    return { ...page, list: page.list.map((row) => depositView(ctx, row)) };
  },
});

/**
 * Demo mode only (else 404, as if the call did not exist). Any logged-in member may pay any address: the
 * chain accepts every valid address, and only an address handed out by /api/recharge/address is credited,
 * to its owner (D4). The answer says nothing about who owns the address, as a real chain would not.
 */
const chainSendHandler = handler({
  auth: true,
  body: body({ network: networkSchema, address: z.string().max(200), amount }),
  run: async (ctx, input): Promise<ChainSendResult> => {
    if (!ctx.counterparties.chain) throw fail(Codes.notFound, 'Resource not found');
    const value = positive(input.amount);
    const address = requireAddress(input.network, input.address);
    const chain = chainOf(ctx, input.network);
    const txId = await ctx.ids.next('chainTx');
    const tx = chain.send(`in:${txId}`, ctx.now);
    const recordId = await watchPayment(ctx, input.network, address, value, tx);
    ctx.tx.put(chainTxs, {
      id: txId,
      network: input.network,
      hash: tx.hash,
      direction: 'in',
      address,
      amount: value.toString(),
      includedHeight: tx.includedHeight,
      sentAt: ctx.now,
      recordId,
    });
    return {
      txid: tx.hash,
      network: input.network,
      address,
      amount: formatAmount(value),
      includedHeight: tx.includedHeight,
      required: chain.params.confirmations,
      confirmAt: toSeconds(chain.confirmedAtMs(tx.includedHeight)),
    };
  },
});

export const depositsDomain: Domain = {
  name: 'deposits',
  handlers: {
    '/api/recharge/address': addressHandler,
    '/api/recharge/submit': submitHandler,
    '/api/recharge/list': listHandler,
    '/api/demo/chain/send': chainSendHandler,
  },
  jobs: { [DEPOSIT_CONFIRM_JOB]: confirmDepositJob, [DEPOSIT_REVIEW_JOB]: reviewDepositJob },
};
