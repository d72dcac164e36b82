/**
 * The signer's TRON route: the API server's TRON gateway (server/chain/tron.ts) has TronGrid build a USDT
 * `transfer` and sends its `raw_data_hex` here. The signer decodes the protobuf itself (TRON's
 * `Transaction.raw`) and signs only one TriggerSmartContract `transfer(address,uint256)` from its own address
 * to the configured token, within its fee cap, expiration window and the USDT limits it shares with the EVM
 * route, for a withdrawal id not signed for another transaction; txId is sha256 of raw_data, the signature
 * secp256k1 `r || s || v`. Every check: docs/OPERATIONS.md "The signer process" ("TRON").
 */
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, concatBytes, hexToBytes } from '@noble/hashes/utils.js';
import type { TronJournalEntry } from './journal';
import { checkWithdrawalId, type SignatureLedger } from './ledger';
import { Refusal } from './wire';
import { TRON_PREFIX, tronAddress, tronBase58check, formatAmount } from '../../engine/server';

/** ContractType.TriggerSmartContract in Tron.proto. */
const TRIGGER_SMART_CONTRACT = 31n;
const TRIGGER_TYPE_URL = 'type.googleapis.com/protocol.TriggerSmartContract';
/** `transfer(address,uint256)`. */
const TRANSFER_SELECTOR = 'a9059cbb';
/** Largest raw_data accepted (a USDT transfer is about 210 bytes). */
const MAX_RAW_BYTES = 2_048;

// ---------------------------------------------------------------------------------------------------------
// A minimal protobuf reader: varints (wire type 0) and length-delimited fields (wire type 2), which is all
// Transaction.raw, Contract, Any and TriggerSmartContract use. Any other wire type is refused.

export interface ProtoField {
  field: number;
  /** Set for wire type 0 (as an unsigned 64-bit integer: a negative int64 reads as >= 2^63). */
  varint?: bigint;
  /** Set for wire type 2. */
  bytes?: Uint8Array;
}

const malformed = (what: string) => new Refusal(400, `rawDataHex is not a TRON transaction: ${what}`);

function readVarint(buf: Uint8Array, start: number): [bigint, number] {
  let value = 0n;
  let pos = start;
  for (let shift = 0n; shift < 70n; shift += 7n) {
    const byte = buf[pos++];
    if (byte === undefined) throw malformed('truncated varint');
    value |= BigInt(byte & 0x7f) << shift;
    if ((byte & 0x80) === 0) {
      if (value >= 1n << 64n) throw malformed('varint over 64 bits');
      return [value, pos];
    }
  }
  throw malformed('varint over 10 bytes');
}

/** The fields of one message, in order. */
export function readMessage(buf: Uint8Array): ProtoField[] {
  const out: ProtoField[] = [];
  let pos = 0;
  while (pos < buf.length) {
    const [key, afterKey] = readVarint(buf, pos);
    const field = Number(key >> 3n);
    const wire = Number(key & 7n);
    if (field === 0 || field > 536_870_911) throw malformed('bad field number');
    if (wire === 0) {
      const [varint, next] = readVarint(buf, afterKey);
      out.push({ field, varint });
      pos = next;
    } else if (wire === 2) {
      const [length, start] = readVarint(buf, afterKey);
      const end = start + Number(length);
      if (length > BigInt(buf.length) || end > buf.length) throw malformed('truncated field');
      out.push({ field, bytes: buf.subarray(start, end) });
      pos = end;
    } else throw malformed(`wire type ${wire} in field ${field}`);
  }
  return out;
}

/** Field number -> expected kind; a field not listed is refused, a listed one may appear once only. */
type Shape = Record<number, 'varint' | 'bytes' | 'repeated bytes'>;

function pick(buf: Uint8Array, shape: Shape, where: string): Map<number, ProtoField[]> {
  const found = new Map<number, ProtoField[]>();
  for (const f of readMessage(buf)) {
    const kind = shape[f.field];
    if (!kind) throw new Refusal(403, `Refused: ${where} field ${f.field} is not signed`);
    if ((kind === 'varint') !== (f.varint !== undefined)) throw malformed(`${where} field ${f.field} type`);
    const list = found.get(f.field) ?? [];
    if (list.length > 0 && kind !== 'repeated bytes') throw malformed(`${where} field ${f.field} repeated`);
    list.push(f);
    found.set(f.field, list);
  }
  return found;
}

const varintOf = (m: Map<number, ProtoField[]>, field: number) => m.get(field)?.[0]?.varint ?? 0n;
const bytesOf = (m: Map<number, ProtoField[]>, field: number) => m.get(field)?.[0]?.bytes ?? new Uint8Array();

// ---------------------------------------------------------------------------------------------------------

/** What a TRC-20 `transfer` transaction says, decoded from its raw_data bytes. */
export interface TronTransfer {
  /** sha256 of raw_data, hex: the transaction id. */
  txId: string;
  /** 21-byte addresses (0x41 + account), hex. */
  owner: string;
  contract: string;
  /** Recipient, base58 "T...". */
  to: string;
  /** Token units (USDT: micro-USDT). */
  amount: bigint;
  feeLimit: bigint;
  expiration: bigint;
  timestamp: bigint;
}

/**
 * Decodes `raw_data` and refuses (403) anything but one TriggerSmartContract calling `transfer(address,
 * uint256)` with no TRX or TRC-10 value and no extra fields. Policy on whose and which contract is left to
 * the caller (`checkTronTransfer`).
 */
export function decodeTronTransfer(raw: Uint8Array): TronTransfer {
  if (raw.length === 0 || raw.length > MAX_RAW_BYTES) throw malformed('empty or too large');
  // Transaction.raw: ref_block_bytes 1, ref_block_num 3, ref_block_hash 4, expiration 8, contract 11,
  // timestamp 14, fee_limit 18. Refused: auths 9, data (memo) 10, scripts 12, anything unknown.
  const tx = pick(
    raw,
    { 1: 'bytes', 3: 'varint', 4: 'bytes', 8: 'varint', 11: 'repeated bytes', 14: 'varint', 18: 'varint' },
    'raw_data',
  );
  const contracts = tx.get(11) ?? [];
  if (contracts.length !== 1)
    throw new Refusal(403, `Refused: ${contracts.length} contracts; exactly one is signed`);
  if (bytesOf(tx, 1).length !== 2 || bytesOf(tx, 4).length !== 8)
    throw malformed('ref_block_bytes / ref_block_hash');
  // Contract: type 1, parameter 2 (Any), Permission_id 5 (the owner's, 0, only).
  const contract = pick(
    contracts[0]?.bytes ?? new Uint8Array(),
    { 1: 'varint', 2: 'bytes', 5: 'varint' },
    'contract',
  );
  if (varintOf(contract, 1) !== TRIGGER_SMART_CONTRACT)
    throw new Refusal(403, `Refused: contract type ${varintOf(contract, 1)} is not TriggerSmartContract`);
  if (varintOf(contract, 5) !== 0n) throw new Refusal(403, 'Refused: a permission other than the owner');
  const any = pick(bytesOf(contract, 2), { 1: 'bytes', 2: 'bytes' }, 'parameter');
  if (new TextDecoder().decode(bytesOf(any, 1)) !== TRIGGER_TYPE_URL)
    throw new Refusal(403, 'Refused: the parameter is not a TriggerSmartContract');
  // TriggerSmartContract: owner 1, contract 2, call_value 3, data 4, call_token_value 5, token_id 6.
  const call = pick(
    bytesOf(any, 2),
    { 1: 'bytes', 2: 'bytes', 3: 'varint', 4: 'bytes', 5: 'varint', 6: 'varint' },
    'TriggerSmartContract',
  );
  if (varintOf(call, 3) !== 0n) throw new Refusal(403, 'Refused: the transaction sends TRX (call_value)');
  if (varintOf(call, 5) !== 0n || varintOf(call, 6) !== 0n)
    throw new Refusal(403, 'Refused: the transaction sends a TRC-10 token');
  const owner = bytesOf(call, 1);
  const target = bytesOf(call, 2);
  if (owner.length !== 21 || owner[0] !== TRON_PREFIX || target.length !== 21 || target[0] !== TRON_PREFIX)
    throw malformed('owner_address / contract_address');
  const data = bytesOf(call, 4);
  if (data.length < 4 || bytesToHex(data.subarray(0, 4)) !== TRANSFER_SELECTOR)
    throw new Refusal(403, 'Refused: only transfer(address,uint256) is signed');
  if (data.length !== 68) throw new Refusal(403, 'Refused: the transfer call data is not 68 bytes');
  // The address word: 12 zero bytes, or 11 and TRON's 0x41 (some encoders keep it; the token reads the
  // low 20 bytes either way), then the account.
  const pad = data.subarray(4, 16);
  if (!pad.subarray(0, 11).every((b) => b === 0) || (pad[11] !== 0 && pad[11] !== TRON_PREFIX))
    throw new Refusal(403, 'Refused: the recipient is not an address');
  const account = data.subarray(16, 36);
  if (account.every((b) => b === 0)) throw new Refusal(403, 'Refused: the recipient is the zero address');
  const amount = BigInt(`0x${bytesToHex(data.subarray(36, 68))}`);
  if (amount === 0n) throw new Refusal(403, 'Refused: a transfer of nothing');
  return {
    txId: bytesToHex(sha256(raw)),
    owner: bytesToHex(owner),
    contract: bytesToHex(target),
    to: tronAddress(account),
    amount,
    feeLimit: varintOf(tx, 18),
    expiration: varintOf(tx, 8),
    timestamp: varintOf(tx, 14),
  };
}

export interface TronPolicy {
  /** The signer's own address, base58. */
  owner: string;
  /** The USDT (TRC-20) contract, base58. */
  token: string;
  /** Highest fee_limit signed, sun. */
  maxFeeLimit: bigint;
  /** How far ahead of now the expiration may be, ms. */
  maxExpirationMs: number;
  now: number;
}

/** 21 bytes of a base58 TRON address, hex. */
export function tronAddressHex(address: string): string {
  const bytes = tronBase58check.decode(address);
  if (bytes.length !== 21 || bytes[0] !== TRON_PREFIX) throw new TypeError(`Not a TRON address: ${address}`);
  return bytesToHex(bytes);
}

/** Refuses (403) a decoded transfer that is not the signer's own, on the token, with sane fee and time. */
export function checkTronTransfer(transfer: TronTransfer, policy: TronPolicy): void {
  if (transfer.owner !== tronAddressHex(policy.owner))
    throw new Refusal(403, "Refused: the transaction is not from the signer's address");
  if (transfer.contract !== tronAddressHex(policy.token))
    throw new Refusal(403, 'Refused: not a call to the configured token contract');
  if (transfer.feeLimit <= 0n || transfer.feeLimit > policy.maxFeeLimit)
    throw new Refusal(
      403,
      `Refused: fee_limit ${transfer.feeLimit} sun is not between 1 and ${policy.maxFeeLimit}`,
    );
  const now = BigInt(policy.now);
  if (transfer.expiration <= now || transfer.expiration > now + BigInt(policy.maxExpirationMs))
    throw new Refusal(403, 'Refused: the expiration is in the past or too far ahead');
}

/** The base58 address of a secp256k1 private key: keccak-256 of the uncompressed public key, last 20 bytes. */
export function tronAddressOfKey(key: Uint8Array): string {
  const uncompressed = secp256k1.getPublicKey(key, false);
  return tronAddress(keccak_256(uncompressed.subarray(1)).subarray(12));
}

/** 65 bytes r || s || v (v = recovery id, 0 or 1) over the 32-byte transaction id, hex. */
export function signTronTxId(txId: Uint8Array, key: Uint8Array): string {
  const recovered = secp256k1.sign(txId, key, { prehash: false, format: 'recovered' });
  // noble puts the recovery byte first; TRON wants it last.
  return bytesToHex(concatBytes(recovered.subarray(1), recovered.subarray(0, 1)));
}

/** The base58 address a 65-byte TRON signature over `txId` was made by (throws when it is not a signature). */
export function tronSigner(txId: Uint8Array, signature: Uint8Array): string {
  if (signature.length !== 65) throw new TypeError('A TRON signature is 65 bytes');
  const v = signature[64] ?? 0;
  const recovery = v >= 27 ? v - 27 : v;
  const publicKey = secp256k1.Signature.fromBytes(signature.subarray(0, 64), 'compact')
    .addRecoveryBit(recovery)
    .recoverPublicKey(txId)
    .toBytes(false);
  return tronAddress(keccak_256(publicKey.subarray(1)).subarray(12));
}

export interface TronSigningSettings {
  /** The TRON hot wallet's private key, 64 hex (0x optional). */
  key: string;
  /** The USDT (TRC-20) contract, base58 (TRON_USDT_ADDRESS). */
  token: string;
  /** Highest fee_limit signed, sun (default 100 TRX). */
  maxFeeLimit?: bigint;
  /** How far ahead the expiration may be, ms (default 1 hour; TronGrid sets about 60 s). */
  maxExpirationMs?: number;
}

export interface TronSigning {
  readonly address: string;
  /** `POST /v1/tron/sign`'s body in, `{ signature, txId }` out; a Refusal otherwise. */
  sign(body: unknown): { signature: string; txId: string };
}

/** Why these settings cannot sign (a message naming the variable), or undefined. */
export function tronSettingsProblem(settings: TronSigningSettings): string | undefined {
  const hex = settings.key.replace(/^0x/, '');
  if (!/^[0-9a-fA-F]{64}$/.test(hex) || !secp256k1.utils.isValidSecretKey(hexToBytes(hex)))
    return 'SIGNER_TRON_KEY must be a secp256k1 private key, 64 hex digits';
  try {
    tronAddressHex(settings.token);
  } catch {
    return 'TRON_USDT_ADDRESS must be a TRON address (base58, T...)';
  }
  return undefined;
}

export function createTronSigning(
  settings: TronSigningSettings,
  shared: { ledger: SignatureLedger; now: () => number; log: (entry: Record<string, unknown>) => void },
): TronSigning {
  const problem = tronSettingsProblem(settings);
  if (problem) throw new Error(problem);
  const key = hexToBytes(settings.key.replace(/^0x/, ''));
  const address = tronAddressOfKey(key);
  const maxFeeLimit = settings.maxFeeLimit ?? 100_000_000n;
  const maxExpirationMs = settings.maxExpirationMs ?? 3_600_000;
  return {
    address,
    sign(body) {
      if (typeof body !== 'object' || body === null) throw new Refusal(400, 'Body must be a JSON object');
      for (const name of Object.keys(body))
        if (name !== 'rawDataHex' && name !== 'withdrawalId')
          throw new Refusal(400, `${name} is not allowed`);
      const { rawDataHex, withdrawalId } = body as { rawDataHex?: unknown; withdrawalId?: unknown };
      checkWithdrawalId(withdrawalId);
      if (
        typeof rawDataHex !== 'string' ||
        rawDataHex.length > MAX_RAW_BYTES * 2 ||
        !/^(?:[0-9a-fA-F]{2})+$/.test(rawDataHex)
      )
        throw new Refusal(400, 'rawDataHex must be hex');
      const raw = hexToBytes(rawDataHex);
      const transfer = decodeTronTransfer(raw);
      checkTronTransfer(transfer, {
        owner: address,
        token: settings.token,
        maxFeeLimit,
        maxExpirationMs,
        now: shared.now(),
      });
      // The limits and the withdrawal id's earlier signature, checked and reserved at once.
      const reservation = shared.ledger.reserve(withdrawalId, {
        network: 'TRC20',
        txId: transfer.txId,
        amount: transfer.amount,
        to: transfer.to,
      });
      let signature: string;
      try {
        signature = signTronTxId(hexToBytes(transfer.txId), key);
      } catch (error) {
        reservation.release();
        throw error;
      }
      const entry: TronJournalEntry = {
        network: 'TRC20',
        withdrawalId,
        amount: transfer.amount,
        to: transfer.to,
        txId: transfer.txId,
        expiration: Number(transfer.expiration),
        at: shared.now(),
      };
      // On disk before anyone sees the signature (the EVM route's rule).
      reservation.commit(entry);
      shared.log({
        msg: 'signed',
        network: 'TRC20',
        withdrawalId,
        to: transfer.to,
        amount: formatAmount(transfer.amount),
        txId: transfer.txId,
        ...(reservation.again ? { again: true } : {}),
      });
      return { signature, txId: transfer.txId };
    },
  };
}
