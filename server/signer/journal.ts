/**
 * The signer's durable journal (docs/OPERATIONS.md "The signer process", `SIGNER_STATE_FILE`): one JSON line
 * per signature (withdrawal id, nonce, amount, destination, hash, chain id, time), appended and fsync'd
 * before the signature is answered. On start the signer reads it back, so a restart neither resets the
 * day's total nor forgets which nonce a withdrawal id was signed with.
 *
 * Append-only: the service never rewrites a line. A last line cut short by a crash in the middle of a write
 * (no newline, not valid JSON) was never answered to anyone, so it is dropped on open; any other line that
 * does not read back is a corrupt journal and opening fails.
 */
import { closeSync, fsyncSync, ftruncateSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

export interface JournalEntry {
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
  const { withdrawalId, nonce, amount, to, hash, chainId, at } = r;
  if (typeof withdrawalId !== 'string' || withdrawalId === '') throw bad('withdrawalId');
  if (typeof nonce !== 'number' || !Number.isSafeInteger(nonce) || nonce < 0) throw bad('nonce');
  if (typeof amount !== 'string' || !/^[1-9][0-9]{0,30}$/.test(amount)) throw bad('amount');
  if (typeof to !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(to)) throw bad('to');
  if (typeof hash !== 'string' || !/^0x[0-9a-f]{64}$/.test(hash)) throw bad('hash');
  if (typeof chainId !== 'number' || !Number.isSafeInteger(chainId) || chainId < 0) throw bad('chainId');
  if (typeof at !== 'number' || !Number.isSafeInteger(at) || at < 0) throw bad('at');
  return { withdrawalId, nonce, amount: BigInt(amount), to, hash, chainId, at };
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
