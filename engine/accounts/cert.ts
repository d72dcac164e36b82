/**
 * Identity verification (POST /api/user/cert). The submission is `under review`; in demo mode a simulated
 * reviewer passes it after `config.certReviewMs` (job `accounts.certReview`), in live mode an operator
 * decides (engine/operations.ts). Decisions: images must be the member's
 * own uploads; a member with a certificate under review or passed gets 403 (request denied); the ID number
 * is kept masked (last 4 characters) because the demo has no use for the full number.
 */
import { toSeconds, type Ctx } from '../context';
import { Codes, fail } from '../errors';
import { handler } from '../router';
import { body, text } from '../schema';
import { defineTable } from '../store/port';
import { members } from './tables';
import { ownUpload } from './uploads';

export interface CertRow {
  id: string;
  memberId: string;
  realName: string;
  idNumber: string;
  frontImage: string;
  backImage: string;
  status: 'under review' | 'passed' | 'rejected';
  createdAt: number;
  reviewedAt: number | null;
  /** An operator's reason for the decision (engine/operations.ts decideCert), shown to the member. */
  reason?: string | null;
}

export const certs = defineTable<CertRow>('certs', { member: (c) => c.memberId });

function view(row: CertRow) {
  return {
    ...row,
    createdAt: toSeconds(row.createdAt),
    reviewedAt: row.reviewedAt === null ? null : toSeconds(row.reviewedAt),
  };
}

export const certHandler = handler({
  auth: true,
  body: body({ realName: text(100), idNumber: text(64), frontImage: text(200), backImage: text(200) }),
  run: async (ctx, input) => {
    const realName = input.realName.trim();
    const idNumber = input.idNumber.trim();
    if (!realName) throw fail(Codes.message, 'Real name is required');
    if (!/^[A-Za-z0-9-]{5,32}$/.test(idNumber)) throw fail(Codes.message, 'ID number is not valid');
    if (
      !(await ownUpload(ctx, ctx.member.id, input.frontImage)) ||
      !(await ownUpload(ctx, ctx.member.id, input.backImage))
    ) {
      throw fail(Codes.message, 'Upload both sides of the document first');
    }
    if (ctx.member.realNameStatus === 'under review' || ctx.member.realNameStatus === 'passed') {
      throw fail(Codes.denied, `Identity verification is already ${ctx.member.realNameStatus}`);
    }
    const row: CertRow = {
      id: await ctx.ids.next('cert'),
      memberId: ctx.member.id,
      realName,
      idNumber: `${'*'.repeat(Math.max(0, idNumber.length - 4))}${idNumber.slice(-4)}`,
      frontImage: input.frontImage.trim(),
      backImage: input.backImage.trim(),
      status: 'under review',
      createdAt: ctx.now,
      reviewedAt: null,
    };
    ctx.tx.put(certs, row);
    ctx.tx.put(members, { ...ctx.member, realNameStatus: 'under review' });
    // Demo: the simulated reviewer passes it later. Live: it stays under review until an operator decides.
    if (ctx.counterparties.reviewer) {
      await ctx.jobs.schedule('accounts.certReview', ctx.now + ctx.config.certReviewMs, { certId: row.id });
    }
    return view(row);
  },
});

export async function reviewCert(ctx: Ctx, payload: unknown): Promise<void> {
  if (!ctx.counterparties.reviewer) return;
  const certId = (payload as { certId?: unknown } | null)?.certId;
  const row = typeof certId === 'string' ? await ctx.tx.get(certs, certId) : undefined;
  if (!row || row.status !== 'under review') return;
  ctx.tx.put(certs, { ...row, status: 'passed', reviewedAt: ctx.now });
  const member = await ctx.tx.get(members, row.memberId);
  if (member) ctx.tx.put(members, { ...member, realNameStatus: 'passed' });
  ctx.emit({ type: 'cert', data: { memberId: row.memberId, status: 'passed' } });
}
