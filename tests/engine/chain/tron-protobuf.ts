/**
 * A test-side encoder of TRON's Transaction.raw for a TRC-20 `transfer` (the bytes TronGrid's
 * /wallet/triggersmartcontract answers as raw_data_hex), with the JSON raw_data that goes with it. Written
 * apart from the signer's reader (server/signer/tron.ts) and checked byte for byte against a published
 * mainnet transaction in signer-tron.test.ts.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, concatBytes, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { tronAddress } from '../../../engine/chain/encoding';

function varint(value: bigint): Uint8Array {
  const out: number[] = [];
  let v = value;
  do {
    const byte = Number(v & 0x7fn);
    v >>= 7n;
    out.push(v > 0n ? byte | 0x80 : byte);
  } while (v > 0n);
  return Uint8Array.from(out);
}

const key = (field: number, wire: 0 | 2) => varint(BigInt((field << 3) | wire));
export const varintField = (field: number, value: bigint | number) =>
  concatBytes(key(field, 0), varint(BigInt(value)));
export const bytesField = (field: number, bytes: Uint8Array) =>
  concatBytes(key(field, 2), varint(BigInt(bytes.length)), bytes);

export interface TransferFields {
  /** 2 bytes, hex. */
  refBlockBytes: string;
  /** 8 bytes, hex. */
  refBlockHash: string;
  expiration: number;
  timestamp: number;
  feeLimit: number;
  /** 21-byte addresses (41...), hex. */
  owner: string;
  contract: string;
  /** Call data, hex (selector and arguments). */
  data: string;
  /** Optional extras, to build transactions the signer must refuse. */
  callValue?: number;
  contractType?: number;
  memo?: string;
}

export const TRIGGER_TYPE_URL = 'type.googleapis.com/protocol.TriggerSmartContract';

/** The raw_data bytes, field by field in the order java-tron writes them. */
export function encodeTransferRaw(f: TransferFields, extraContracts: Uint8Array[] = []): Uint8Array {
  const trigger = concatBytes(
    bytesField(1, hexToBytes(f.owner)),
    bytesField(2, hexToBytes(f.contract)),
    f.callValue ? varintField(3, f.callValue) : new Uint8Array(),
    bytesField(4, hexToBytes(f.data)),
  );
  const any = concatBytes(bytesField(1, utf8ToBytes(TRIGGER_TYPE_URL)), bytesField(2, trigger));
  const contract = concatBytes(varintField(1, f.contractType ?? 31), bytesField(2, any));
  return concatBytes(
    bytesField(1, hexToBytes(f.refBlockBytes)),
    bytesField(4, hexToBytes(f.refBlockHash)),
    varintField(8, f.expiration),
    f.memo ? bytesField(10, utf8ToBytes(f.memo)) : new Uint8Array(),
    bytesField(11, contract),
    ...extraContracts.map((c) => bytesField(11, c)),
    varintField(14, f.timestamp),
    varintField(18, f.feeLimit),
  );
}

/** `transfer(address,uint256)` call data to a 21-byte (41...) or base58 address's account. */
export function transferData(toHex21: string, amount: bigint): string {
  return 'a9059cbb' + toHex21.slice(2).padStart(64, '0') + amount.toString(16).padStart(64, '0');
}

/** TronGrid's `transaction` object for these fields (visible: base58 addresses in raw_data). */
export function triggerTransaction(f: TransferFields) {
  const raw = encodeTransferRaw(f);
  const base58 = (hex: string) => tronAddress(hexToBytes(hex).subarray(1));
  return {
    visible: true,
    txID: bytesToHex(sha256(raw)),
    raw_data: {
      contract: [
        {
          parameter: {
            value: { data: f.data, owner_address: base58(f.owner), contract_address: base58(f.contract) },
            type_url: TRIGGER_TYPE_URL,
          },
          type: 'TriggerSmartContract',
        },
      ],
      ref_block_bytes: f.refBlockBytes,
      ref_block_hash: f.refBlockHash,
      expiration: f.expiration,
      fee_limit: f.feeLimit,
      timestamp: f.timestamp,
    },
    raw_data_hex: bytesToHex(raw),
  };
}
