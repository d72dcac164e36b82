/**
 * Values shaped like wallet secrets, whatever the variable holding them is called (a key under HOT_KEY is as
 * dangerous as one under SIGNER_EVM_KEY): raw secp256k1 keys (64 hex), extended private keys (xprv and its
 * SLIP-132 forms) and BIP-39 mnemonics. config.ts refuses to start when any variable's value has one of these
 * shapes, SIGNER_TOKEN's excepted. docs/SERVER.md "Key custody".
 */
import {
  czech,
  english,
  french,
  italian,
  japanese,
  korean,
  portuguese,
  simplifiedChinese,
  spanish,
  traditionalChinese,
} from 'viem/accounts';

/** Variables whose value is a documented hex secret that is not a key. */
const HEX_SECRETS = new Set(['SIGNER_TOKEN']);

const RAW_KEY = /^(0x)?[0-9a-f]{64}$/i;
const EXTENDED_PRIVATE_KEY = /^[xtyzuv]prv[1-9A-HJ-NP-Za-km-z]{20,}/;
const MNEMONIC_LENGTHS = new Set([12, 15, 18, 21, 24]);

let wordLists: ReadonlyArray<ReadonlySet<string>> | undefined;

function lists(): ReadonlyArray<ReadonlySet<string>> {
  wordLists ??= [
    english,
    czech,
    french,
    italian,
    japanese,
    korean,
    portuguese,
    simplifiedChinese,
    spanish,
    traditionalChinese,
  ].map((list) => new Set(list.map((word) => word.normalize('NFKD'))));
  return wordLists;
}

function isMnemonic(value: string): boolean {
  const words = value
    .normalize('NFKD')
    .toLowerCase()
    .split(/[\s\u3000]+/)
    .filter(Boolean);
  if (!MNEMONIC_LENGTHS.has(words.length)) return false;
  return lists().some((list) => words.every((word) => list.has(word)));
}

/** What kind of wallet secret `value` (of variable `name`) looks like, or undefined. */
export function secretShape(name: string, value: string): string | undefined {
  const v = value.trim();
  if (RAW_KEY.test(v) && !HEX_SECRETS.has(name)) return 'a private key (64 hex digits)';
  if (EXTENDED_PRIVATE_KEY.test(v)) return 'an extended private key';
  if (isMnemonic(v)) return 'a mnemonic (BIP-39 words)';
  return undefined;
}
