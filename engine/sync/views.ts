/**
 * The tables a device replicates, each with who may see a row and what they see. Only tables listed here
 * reach the change log; a view never carries secrets (hashes, key counters) or another member's data
 * beyond what the contract's own lists already show them (a transfer names its counterparty).
 */
import { members, vipName, type MemberRow } from '../accounts/tables';
import { creditScore } from '../credit/score';
import type { Ctx } from '../context';
import { toSeconds } from '../context';
import { depositView } from '../deposits/view';
import { deposits, type DepositRow } from '../deposits/tables';
import { ownerOf } from '../ledger/accounts';
import { balances, type BalanceRow } from '../ledger/tables';
import { formatAmount } from '../money';
import { productTables } from './products';
import type { Row, TableDef } from '../store/port';
import { inviteeView, shareRate } from '../referral/view';
import { positions, type PositionRow } from '../trading/tables';
import { positionRecord } from '../trading/views';
import { transfers, type TransferRow } from '../transfers/tables';
import { vipRecords, type VipRecordRow } from '../vip/tables';
import { withdrawalView } from '../withdrawals/view';
import { withdrawals, type WithdrawalRow } from '../withdrawals/tables';
import { noticeView } from '../devices/notices';
import { notices, type NoticeRow } from '../devices/tables';
import { addressBookSettings, savedAddresses } from '../addressbook/tables';
import type { AddressBookSettingsRow, SavedAddressRow } from '../addressbook/tables';
import { savedAddressView } from '../addressbook/view';
import { favourites, type FavouriteRow } from '../favourites/tables';
import { favouriteView } from '../favourites/view';
import { noticeReads, type NoticeReadRow } from '../notices/tables';
import { noticeReadView } from '../notices/view';
import { priceAlerts, type PriceAlertRow } from '../alerts/tables';
import { alertView } from '../alerts/view';
import { fundingPayments, type FundingRow } from '../trading/funding';
import { fundingView } from '../trading/views';
import { journal, type JournalEntry } from '../ledger/tables';
import { ledgerLineMembers, ledgerLinesView } from '../ledger/lines';

export interface Synced<T extends Row> {
  table: TableDef<T>;
  /**
   * The name devices know the rows by, when it is not the engine table's: one engine table can sync under
   * two names with two audiences (a member's own profile, and the same row as an inviter's invitee).
   */
  name?: string;
  /** The members who see this row. */
  membersOf(row: T): string[];
  /** What `memberId` sees of it: plain JSON data, wire units (decimal strings, Unix seconds). */
  view(ctx: Ctx, row: T, memberId: string): unknown;
}

function synced<T extends Row>(spec: Synced<T>): Synced<Row> {
  return spec as unknown as Synced<Row>;
}

const profile = synced<MemberRow>({
  table: members,
  membersOf: (m) => [m.id],
  view: (ctx, m) => ({
    id: m.id,
    username: m.username,
    email: m.email,
    phone: m.phone,
    vip: vipName(m.vip),
    vipExpiresAt: m.vipExpiresAt === null ? null : toSeconds(m.vipExpiresAt),
    realNameStatus: m.realNameStatus,
    inviteCode: m.inviteCode,
    /** The inviter's share of each invitee's trading fees, percent (/user/invite); the engine's setting. */
    inviteShareRate: shareRate(ctx.config.referralShareBps),
    createdAt: toSeconds(m.createdAt),
    /** As /api/user/getuser answers it when the record changed (the device shows it with its time). */
    creditScore: creditScore(m, ctx.now),
  }),
});

const balance = synced<BalanceRow>({
  table: balances,
  membersOf: (b) => {
    const owner = b.owner ?? ownerOf(b.account);
    return owner ? [owner] : [];
  },
  view: (_ctx, b) => {
    const [, , sub = 'cash', frozen] = b.account.split(':');
    return {
      id: b.id,
      sub,
      frozen: frozen === 'frozen',
      asset: b.asset,
      amount: formatAmount(BigInt(b.amount)),
    };
  },
});

const transfer = synced<TransferRow>({
  table: transfers,
  membersOf: (t) => (t.fromId === t.toId ? [t.fromId] : [t.fromId, t.toId]),
  view: (_ctx, t, memberId) => {
    const out = t.fromId === memberId;
    return {
      id: t.id,
      direction: out ? 'out' : 'in',
      account: out ? t.toUsername : t.fromUsername,
      from: t.fromUsername,
      to: t.toUsername,
      amount: t.amount,
      status: t.status,
      createdAt: toSeconds(t.createdAt),
    };
  },
});

const withdrawal = synced<WithdrawalRow>({
  table: withdrawals,
  membersOf: (w) => [w.memberId],
  view: (_ctx, w) => withdrawalView(w),
});

const deposit = synced<DepositRow>({
  table: deposits,
  membersOf: (d) => [d.memberId],
  view: (ctx, d) => depositView(ctx, d),
});

const vipRecord = synced<VipRecordRow>({
  table: vipRecords,
  membersOf: (r) => [r.memberId],
  view: (_ctx, r) => ({
    id: r.id,
    type: r.type,
    from: vipName(r.fromLevel),
    to: vipName(r.toLevel),
    amount: r.amount,
    message: r.message,
    createdAt: toSeconds(r.createdAt),
  }),
});

const position = synced<PositionRow>({
  table: positions,
  membersOf: (p) => [p.memberId],
  view: (_ctx, p) => positionRecord(p),
});

/** A member as their inviter sees them: what /api/user/invite lists (the name masked). */
const invitee = synced<MemberRow>({
  table: members,
  name: 'invitees',
  membersOf: (m) => (m.invitedBy ? [m.invitedBy] : []),
  view: (_ctx, m) => inviteeView(m),
});

/** What the service told the member (a login from a new device...), with their anti-phishing code. */
const notice = synced<NoticeRow>({
  table: notices,
  membersOf: (n) => [n.memberId],
  view: (_ctx, n) => noticeView(n),
});

/** The member's withdrawal address book (shown offline with its time, checked by the withdrawal form). */
const savedAddress = synced<SavedAddressRow>({
  table: savedAddresses,
  membersOf: (r) => [r.memberId],
  view: (_ctx, r) => savedAddressView(r),
});

const addressBookSetting = synced<AddressBookSettingsRow>({
  table: addressBookSettings,
  membersOf: (r) => [r.memberId],
  view: (_ctx, r) => ({ id: r.id, whitelist: r.whitelist }),
});

/** The member's price alerts: set, fired (with the price that reached them) and cancelled. */
const priceAlert = synced<PriceAlertRow>({
  table: priceAlerts,
  membersOf: (r) => [r.memberId],
  view: (_ctx, r) => alertView(r),
});

/** The member's favourite pairs (the Quotes tab's watchlist, on every device of theirs). */
const favourite = synced<FavouriteRow>({
  table: favourites,
  membersOf: (r) => [r.memberId],
  view: (_ctx, r) => favouriteView(r),
});

/** How far the member has read their notices: the unread count is the same on each device of theirs. */
const noticeRead = synced<NoticeReadRow>({
  table: noticeReads,
  membersOf: (r) => [r.memberId],
  view: (_ctx, r) => noticeReadView(r),
});

/**
 * Each funding payment of the member's positions, with the mark price of its funding time: the history
 * offline, and the mark at 00:00 UTC from which /user's today's PnL measures a position open since before.
 */
const funding = synced<FundingRow>({
  table: fundingPayments,
  membersOf: (r) => [r.memberId],
  view: (_ctx, r) => fundingView(r),
});

/**
 * The member's own lines of each ledger entry (their legs netted per sub-account and asset, holds and
 * releases being no movement): the account statement's realised PnL, funding, fees and moves between
 * accounts, made on the device.
 */
const ledgerLine = synced<JournalEntry>({
  table: journal,
  name: 'ledgerLines',
  membersOf: ledgerLineMembers,
  view: (_ctx, e, memberId) => ledgerLinesView(e, memberId),
});

/** The name a synced table's rows have on devices and in the change log. */
export function syncedName(spec: Synced<Row>): string {
  return spec.name ?? spec.table.name;
}

const ALL = [
  profile,
  balance,
  transfer,
  withdrawal,
  deposit,
  vipRecord,
  ...productTables,
  position,
  invitee,
  notice,
  savedAddress,
  addressBookSetting,
  priceAlert,
  favourite,
  noticeRead,
  funding,
  ledgerLine,
];

/** Synced name -> how it syncs. */
export const syncedTables: ReadonlyMap<string, Synced<Row>> = new Map(ALL.map((s) => [syncedName(s), s]));

/** Engine table name -> every way its rows sync. */
export const syncedByTable: ReadonlyMap<string, readonly Synced<Row>[]> = ALL.reduce((map, s) => {
  map.set(s.table.name, [...(map.get(s.table.name) ?? []), s]);
  return map;
}, new Map<string, Synced<Row>[]>());
