/**
 * The signer's durable journal (`SIGNER_STATE_FILE`): one JSON line per signature, EVM or TRON, appended and
 * fsync'd before the signature is answered, and read back at start (server/signer/ledger.ts) so a restart
 * neither resets the day's total nor forgets what a withdrawal id was signed for. Append-only; a last line cut
 * short by a crash was never answered and is dropped on open, any other unreadable line fails the open.
 * Fields per network: docs/OPERATIONS.md "The signer process" ("The journal").
 */
import { closeSync, fsyncSync, ftruncateSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

export interface EvmJournalEntry {
  network: 'ERC20';
  withdrawalId: string;
  nonce: number;
  /** Micro-USDT. */
  amount: bigint;
  /** The transfer's destination (checksummed). */
  to: string;
  /** keccak-256 of the signed bytes. */
  hash: string;
  chainId: number;
  /** When it was signed, ms since the epoch. */
  at: number;
}

export interface TronJournalEntry {
  network: 'TRC20';
  withdrawalId: string;
  /** Micro-USDT. */
  amount: bigint;
  /** The transfer's destination, base58 "T...". */
  to: string;
  /** The transaction id: sha256 of the raw_data signed, 64 hex digits. */
  txId: string;
  /** raw_data.expiration, ms since the epoch: after it the transaction can never be included. */
  expiration: number;
  /** When it was signed, ms since the epoch. */
  at: number;
}

export type JournalEntry = EvmJournalEntry | TronJournalEntry;

export class JournalError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JournalError';
  }
}

function parseEntry(line: string, number: number): JournalEntry {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    throw new JournalError(`line ${number} is not JSON`);
  }
  const bad = (field: string) => new JournalError(`line ${number}: ${field} is missing or malformed`);
  if (typeof raw !== 'object' || raw === null) throw bad('the entry');
  const r = raw as Record<string, unknown>;
  const { network, withdrawalId, amount, to, at } = r;
  if (typeof withdrawalId !== 'string' || withdrawalId === '') throw bad('withdrawalId');
  if (typeof amount !== 'string' || !/^[1-9][0-9]{0,30}$/.test(amount)) throw bad('amount');
  if (typeof at !== 'number' || !Number.isSafeInteger(at) || at < 0) throw bad('at');
  if (network === 'TRC20') {
    const { txId, expiration } = r;
    if (typeof to !== 'string' || !/^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(to)) throw bad('to');
    if (typeof txId !== 'string' || !/^[0-9a-f]{64}$/.test(txId)) throw bad('txId');
    if (typeof expiration !== 'number' || !Number.isSafeInteger(expiration) || expiration < 0)
      throw bad('expiration');
    return { network, withdrawalId, amount: BigInt(amount), to, txId, expiration, at };
  }
  if (network !== undefined && network !== 'ERC20') throw bad('network');
  const { nonce, hash, chainId } = r;
  if (typeof nonce !== 'number' || !Number.isSafeInteger(nonce) || nonce < 0) throw bad('nonce');
  if (typeof to !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(to)) throw bad('to');
  if (typeof hash !== 'string' || !/^0x[0-9a-f]{64}$/.test(hash)) throw bad('hash');
  if (typeof chainId !== 'number' || !Number.isSafeInteger(chainId) || chainId < 0) throw bad('chainId');
  return { network: 'ERC20', withdrawalId, nonce, amount: BigInt(amount), to, hash, chainId, at };
}

export class SignerJournal {
  private constructor(
    private fd: number | null,
    readonly entries: readonly JournalEntry[],
    /** Set when a torn last line was dropped on open (for the start log). */
    readonly repaired: boolean,
  ) {}

  /** Opens (creating it, mode 0600, and its directory) and reads back the journal; JournalError when it cannot. */
  static open(path: string): SignerJournal {
    let fd: number;
    let text: string;
    try {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      fd = openSync(path, 'a+', 0o600);
      text = readFileSync(fd, 'utf8');
    } catch (error) {
      throw new JournalError(`cannot open or read it: ${(error as Error).message}`);
    }
    try {
      const entries: JournalEntry[] = [];
      const lines = text.split('\n');
      // The text after the last newline: '' for a clean file, else a line whose write did not finish.
      const tail = lines.pop() ?? '';
      lines.forEach((line, index) => {
        if (line.trim() === '') throw new JournalError(`line ${index + 1} is empty`);
        entries.push(parseEntry(line, index + 1));
      });
      let repaired = false;
      if (tail !== '') {
        let whole: JournalEntry | undefined;
        try {
          whole = parseEntry(tail, lines.length + 1);
        } catch {
          whole = undefined;
        }
        if (whole) {
          entries.push(whole);
          writeSync(fd, '\n');
        } else {
          ftruncateSync(fd, Buffer.byteLength(text, 'utf8') - Buffer.byteLength(tail, 'utf8'));
        }
        fsyncSync(fd);
        repaired = true;
      }
      return new SignerJournal(fd, entries, repaired);
    } catch (error) {
      closeSync(fd);
      throw error instanceof JournalError
        ? error
        : new JournalError(`cannot repair it: ${(error as Error).message}`);
    }
  }

  /** Appends one entry and waits for the disk (fsync): only then may the signature be answered. */
  append(entry: JournalEntry): void {
    if (this.fd === null) throw new JournalError('the journal is closed');
    const line = `${JSON.stringify({ ...entry, amount: entry.amount.toString() })}\n`;
    const bytes = Buffer.from(line, 'utf8');
    let written = 0;
    while (written < bytes.length) written += writeSync(this.fd, bytes, written);
    fsyncSync(this.fd);
  }

  close(): void {
    if (this.fd === null) return;
    closeSync(this.fd);
    this.fd = null;
  }
}
