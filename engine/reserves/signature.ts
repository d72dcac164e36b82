/**
 * Ed25519 (RFC 8032) for the proof-of-reserves snapshot: WebCrypto (Node's, the demo worker's, the member's
 * browser), with the audited @noble/curves implementation loaded only where a browser's WebCrypto has no
 * Ed25519 yet. Both give the same signatures (Ed25519 is deterministic). Keys are 32-byte seeds; public keys
 * and signatures travel as hex.
 */
import { bytesToHex, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { base64urlnopad } from '@scure/base';

/** PKCS#8 DER header of an Ed25519 private key (RFC 8410), followed by the 32-byte seed. */
const PKCS8_ED25519 = hexToBytes('302e020100300506032b657004220420');

function pkcs8(seed: Uint8Array): Uint8Array<ArrayBuffer> {
  const der = new Uint8Array(PKCS8_ED25519.length + seed.length);
  der.set(PKCS8_ED25519);
  der.set(seed, PKCS8_ED25519.length);
  return der;
}

async function noble() {
  return (await import('@noble/curves/ed25519.js')).ed25519;
}

export interface SignedText {
  /** 64 bytes, hex. */
  signature: string;
  /** 32 bytes, hex. */
  publicKey: string;
}

/** Signs the UTF-8 of `message` with the key whose seed is `seed` (32 bytes). */
export async function signText(seed: Uint8Array, message: string): Promise<SignedText> {
  if (seed.length !== 32) throw new RangeError('An Ed25519 seed is 32 bytes');
  const data = utf8ToBytes(message) as Uint8Array<ArrayBuffer>;
  const subtle = globalThis.crypto.subtle;
  let key: CryptoKey | null = null;
  try {
    key = await subtle.importKey('pkcs8', pkcs8(seed), { name: 'Ed25519' }, true, ['sign']);
  } catch {
    // No Ed25519 in this WebCrypto: the same signature from @noble/curves below.
  }
  if (key) {
    const jwk = await subtle.exportKey('jwk', key);
    const signature = new Uint8Array(await subtle.sign({ name: 'Ed25519' }, key, data));
    return { signature: bytesToHex(signature), publicKey: bytesToHex(base64urlnopad.decode(jwk.x ?? '')) };
  }
  const ed = await noble();
  return { signature: bytesToHex(ed.sign(data, seed)), publicKey: bytesToHex(ed.getPublicKey(seed)) };
}

/** Whether `signature` (hex) is `publicKey`'s (hex) over the UTF-8 of `message`; false on any malformed input. */
export async function verifyText(publicKey: string, signature: string, message: string): Promise<boolean> {
  if (!/^[0-9a-f]{64}$/.test(publicKey) || !/^[0-9a-f]{128}$/.test(signature)) return false;
  const data = utf8ToBytes(message) as Uint8Array<ArrayBuffer>;
  const pub = hexToBytes(publicKey) as Uint8Array<ArrayBuffer>;
  const sig = hexToBytes(signature) as Uint8Array<ArrayBuffer>;
  const subtle = globalThis.crypto.subtle;
  let key: CryptoKey | null = null;
  try {
    key = await subtle.importKey('raw', pub, { name: 'Ed25519' }, false, ['verify']);
  } catch {
    // No Ed25519 in this WebCrypto (or a key it refuses): @noble/curves decides below.
  }
  if (key) {
    try {
      return await subtle.verify({ name: 'Ed25519' }, key, sig, data);
    } catch {
      return false;
    }
  }
  try {
    return (await noble()).verify(sig, data, pub);
  } catch {
    return false;
  }
}
