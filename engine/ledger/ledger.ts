/**
 * The double-entry ledger, bound to one unit of work. Every change of any balance is a journal entry whose
 * legs sum to zero per asset (L1); cached balances move with it (L2); member and platform accounts never go
 * negative (L4); frozen money only moves through holds, each closed exactly once (L5, L6).
 */
import { fail } from '../errors';
import type { Ids } from '../ids';
import type { Micro } from '../money';
import type { Tx } from '../store/tx';
import { acct, mustStayNonNegative, ownerOf, USDT, type SubAccount } from './accounts';
import { balanceId, balances, holds, journal, type HoldRow, type JournalEntry } from './tables';

export interface PostingLeg {
  account: string;
  asset?: string;
  amount: Micro;
}

export interface MoveOptions {
  asset?: string;
  kind: string;
  ref: string;
  /** Catalogue code to answer if `from` lacks the money (e.g. 3005, 4011); otherwise a 500. */
  insufficientCode?: number;
  /** The journal entry's id, drawn by the caller (with its other reads); drawn here when absent. */
  entryId?: string;
}

export class LedgerError extends Error {
  override name = 'LedgerError';
}

export class Ledger {
  /** Members whose balances this unit of work changed: the runtime announces them after commit. */
  readonly touched = new Set<string>();

  constructor(
    private readonly tx: Tx,
    private readonly ids: Ids,
    private readonly now: number,
  ) {}

  async balance(account: string, asset: string = USDT): Promise<Micro> {
    const row = await this.tx.get(balances, balanceId(account, asset));
    return row ? BigInt(row.amount) : 0n;
  }

  /** Available and frozen cash of a member in one sub-account. */
  async member(
    memberId: string,
    asset: string = USDT,
    sub: SubAccount = 'cash',
  ): Promise<{ available: Micro; frozen: Micro }> {
    return {
      available: await this.balance(acct.user(memberId, sub), asset),
      frozen: await this.balance(acct.frozen(memberId, sub), asset),
    };
  }

  /** Posts one balanced journal entry. Throws LedgerError (a 500) if it would break L1 or L4. */
  async post(
    kind: string,
    ref: string,
    legs: readonly PostingLeg[],
    entryId?: string,
  ): Promise<JournalEntry> {
    if (legs.length < 2) throw new LedgerError(`${kind}: an entry needs at least two legs`);
    const sums = new Map<string, Micro>();
    for (const leg of legs) {
      if (leg.amount === 0n) throw new LedgerError(`${kind}: zero leg on ${leg.account}`);
      const asset = leg.asset ?? USDT;
      sums.set(asset, (sums.get(asset) ?? 0n) + leg.amount);
    }
    for (const [asset, sum] of sums) {
      if (sum !== 0n) throw new LedgerError(`${kind}: legs of ${asset} sum to ${sum}, not zero (L1)`);
    }
    const members = new Set<string>();
    for (const leg of legs) {
      const asset = leg.asset ?? USDT;
      const id = balanceId(leg.account, asset);
      const row = await this.tx.get(balances, id);
      const next = (row ? BigInt(row.amount) : 0n) + leg.amount;
      if (next < 0n && mustStayNonNegative(leg.account)) {
        throw new LedgerError(`${kind}: ${leg.account} would go negative in ${asset} (L4)`);
      }
      const owner = ownerOf(leg.account) ?? null;
      if (owner) members.add(owner);
      this.tx.put(balances, { id, account: leg.account, asset, amount: next.toString(), owner });
    }
    const entry: JournalEntry = {
      id: entryId ?? (await this.ids.next('journal')),
      at: this.now,
      kind,
      ref,
      legs: legs.map((l) => ({ account: l.account, asset: l.asset ?? USDT, amount: l.amount.toString() })),
      members: [...members].sort(),
    };
    this.tx.put(journal, entry);
    for (const m of members) this.touched.add(m);
    return entry;
  }

  /** Moves `amount` from one account to another (a two-leg entry). */
  async move(from: string, to: string, amount: Micro, options: MoveOptions): Promise<JournalEntry> {
    if (amount <= 0n) throw new LedgerError(`${options.kind}: move of a non-positive amount`);
    const asset = options.asset ?? USDT;
    if (options.insufficientCode !== undefined && mustStayNonNegative(from)) {
      if ((await this.balance(from, asset)) < amount)
        throw fail(options.insufficientCode, 'Insufficient balance');
    }
    return this.post(
      options.kind,
      options.ref,
      [
        { account: from, asset, amount: -amount },
        { account: to, asset, amount },
      ],
      options.entryId,
    );
  }

  /** Freezes `amount` of a member's available money (L5: frozen equals the sum of open holds). */
  async hold(input: {
    memberId: string;
    amount: Micro;
    reason: string;
    ref: string;
    asset?: string;
    sub?: SubAccount;
    insufficientCode?: number;
  }): Promise<HoldRow> {
    const asset = input.asset ?? USDT;
    const account = acct.user(input.memberId, input.sub ?? 'cash');
    const frozenAccount = acct.frozen(input.memberId, input.sub ?? 'cash');
    const id = await this.ids.next('hold');
    await this.move(account, frozenAccount, input.amount, {
      asset,
      kind: `hold:${input.reason}`,
      ref: `hold:${id}`,
      insufficientCode: input.insufficientCode,
    });
    const row: HoldRow = {
      id,
      memberId: input.memberId,
      account,
      frozenAccount,
      asset,
      amount: input.amount.toString(),
      reason: input.reason,
      ref: input.ref,
      status: 'held',
      createdAt: this.now,
      closedAt: null,
    };
    this.tx.put(holds, row);
    return row;
  }

  private async open(holdId: string): Promise<HoldRow> {
    const row = await this.tx.get(holds, holdId);
    if (!row) throw new LedgerError(`hold ${holdId} does not exist`);
    if (row.status !== 'held') throw new LedgerError(`hold ${holdId} is already ${row.status} (L6)`);
    return row;
  }

  /** Returns held money to the member's available balance. Exactly once per hold (L6). */
  async release(holdId: string): Promise<HoldRow> {
    const row = await this.open(holdId);
    await this.move(row.frozenAccount, row.account, BigInt(row.amount), {
      asset: row.asset,
      kind: `release:${row.reason}`,
      ref: `hold:${row.id}`,
    });
    const closed: HoldRow = { ...row, status: 'released', closedAt: this.now };
    this.tx.put(holds, closed);
    return closed;
  }

  /** Pays held money out to `to` (a withdrawal leaving, a purchase settling). Exactly once per hold (L6). */
  async capture(holdId: string, to: string): Promise<HoldRow> {
    const row = await this.open(holdId);
    await this.move(row.frozenAccount, to, BigInt(row.amount), {
      asset: row.asset,
      kind: `capture:${row.reason}`,
      ref: `hold:${row.id}`,
    });
    const closed: HoldRow = { ...row, status: 'captured', closedAt: this.now };
    this.tx.put(holds, closed);
    return closed;
  }

  /** Open holds of a member for one reason (e.g. every VIP deposit hold). */
  async activeHolds(memberId: string, reason: string): Promise<HoldRow[]> {
    return this.tx.query(holds, 'active', `${memberId}:${reason}`);
  }
}
