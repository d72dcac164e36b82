/**
 * A software passkey authenticator for engine tests (the end-to-end tests use Chromium's virtual
 * authenticator instead): an ES256 key pair from WebCrypto, "none" attestation, user presence and
 * verification flags, a signature counter, and the JSON the browser's WebAuthn API hands to the app.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { base64urlnopad as base64url } from '@scure/base';
import type {
  PasskeyAnswer,
  PasskeyCreation,
  PasskeyCreationOptions,
  PasskeyRequestOptions,
} from '../../../engine/contract';

type Cbor = number | string | Uint8Array | Map<number | string, unknown> | { [key: string]: Cbor };

function head(major: number, n: number): number[] {
  if (n < 24) return [(major << 5) | n];
  if (n < 256) return [(major << 5) | 24, n];
  return [(major << 5) | 25, n >> 8, n & 255];
}

/** Just the CBOR WebAuthn's structures need: small ints, byte and text strings, maps. */
export function cbor(value: Cbor): Uint8Array {
  const out: number[] = [];
  const put = (v: Cbor): void => {
    if (typeof v === 'number') out.push(...(v >= 0 ? head(0, v) : head(1, -1 - v)));
    else if (typeof v === 'string') {
      const bytes = new TextEncoder().encode(v);
      out.push(...head(3, bytes.length), ...bytes);
    } else if (v instanceof Uint8Array) out.push(...head(2, v.length), ...v);
    else {
      const entries = v instanceof Map ? [...v.entries()] : Object.entries(v);
      out.push(...head(5, entries.length));
      for (const [k, item] of entries) {
        put(k);
        put(item as Cbor);
      }
    }
  };
  put(value);
  return Uint8Array.from(out);
}

/** WebCrypto's raw r||s ECDSA signature as the DER sequence WebAuthn carries. */
function der(raw: Uint8Array): Uint8Array {
  const int = (bytes: Uint8Array) => {
    let i = 0;
    while (i < bytes.length - 1 && bytes[i] === 0) i++;
    const trimmed = bytes.slice(i);
    return (trimmed[0] ?? 0) & 0x80 ? [0, ...trimmed] : [...trimmed];
  };
  const r = int(raw.slice(0, 32));
  const s = int(raw.slice(32));
  return Uint8Array.from([0x30, r.length + s.length + 4, 2, r.length, ...r, 2, s.length, ...s]);
}

const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

const FLAGS = 0x01 | 0x04; // user present, user verified

export class SoftAuthenticator {
  private counter = 0;
  readonly credentialId = crypto.getRandomValues(new Uint8Array(16));
  private keys?: CryptoKeyPair;
  /** The user handle the relying party gave at registration. */
  private userHandle = '';

  constructor(private readonly origin: string) {}

  private rpIdHash(): Uint8Array {
    return sha256(new TextEncoder().encode(new URL(this.origin).hostname));
  }

  private clientData(type: string, challenge: string, origin = this.origin): Uint8Array {
    return new TextEncoder().encode(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** navigator.credentials.create(options).toJSON() */
  async create(options: PasskeyCreationOptions): Promise<PasskeyCreation> {
    const user = options['user'];
    if (typeof user !== 'object' || user === null || !('id' in user) || typeof user.id !== 'string') {
      throw new Error('creation options without user.id');
    }
    this.keys = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, [
      'sign',
      'verify',
    ]);
    this.userHandle = user.id;
    const raw = new Uint8Array(await crypto.subtle.exportKey('raw', this.keys.publicKey));
    const cose = cbor(
      new Map<number, Cbor>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, raw.slice(1, 33)],
        [-3, raw.slice(33)],
      ]),
    );
    const id = this.credentialId;
    const authData = concat(
      this.rpIdHash(),
      Uint8Array.of(FLAGS | 0x40),
      Uint8Array.of(0, 0, 0, 0),
      new Uint8Array(16),
      Uint8Array.of(id.length >> 8, id.length & 255),
      id,
      cose,
    );
    const attestationObject = cbor({ fmt: 'none', attStmt: new Map(), authData });
    return {
      id: base64url.encode(id),
      rawId: base64url.encode(id),
      type: 'public-key',
      response: {
        clientDataJSON: base64url.encode(this.clientData('webauthn.create', options.challenge)),
        attestationObject: base64url.encode(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
    };
  }

  /** navigator.credentials.get(options).toJSON(); `origin` to answer as another site would. */
  async get(options: PasskeyRequestOptions, origin?: string): Promise<PasskeyAnswer> {
    if (!this.keys) throw new Error('no credential yet');
    this.counter += 1;
    const c = this.counter;
    const authData = concat(
      this.rpIdHash(),
      Uint8Array.of(FLAGS),
      Uint8Array.of(c >>> 24, (c >> 16) & 255, (c >> 8) & 255, c & 255),
    );
    const clientDataJSON = this.clientData('webauthn.get', options.challenge, origin);
    const signed = concat(authData, sha256(clientDataJSON));
    const raw = new Uint8Array(
      await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, this.keys.privateKey, signed),
    );
    return {
      id: base64url.encode(this.credentialId),
      rawId: base64url.encode(this.credentialId),
      type: 'public-key',
      response: {
        clientDataJSON: base64url.encode(clientDataJSON),
        authenticatorData: base64url.encode(authData),
        signature: base64url.encode(der(raw)),
        userHandle: this.userHandle,
      },
      clientExtensionResults: {},
    };
  }
}
