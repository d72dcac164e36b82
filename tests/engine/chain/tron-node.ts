/**
 * A stand-in TronGrid for the live-server test (no TRON node runs in CI): node:http on a free loopback port,
 * answering the requests server/chain/tron.ts makes with responses in TronGrid's documented format (those of
 * fixtures/trongrid.json), made stateful:
 *
 * - a chain head that the test advances (`mine`), one block per 3 s of block time;
 * - `pay(from, to, amount)`: a TRC-20 transfer of the token in the next block, listed by
 *   /v1/accounts/{to}/transactions/trc20 and described (block, receipt, Transfer log) by
 *   /wallet/gettransactioninfobyid;
 * - /wallet/triggersmartcontract builds a real unsigned transaction: raw_data_hex is TRON's protobuf
 *   (tron-protobuf.ts), txID its sha256, raw_data the same fields as JSON;
 * - /wallet/broadcasttransaction records what it got and, as a node does, accepts it only when the txID is
 *   sha256 of raw_data_hex and the signature recovers to the owner; then the transfer is in the next block
 *   (and /wallet/gettransactionbyid knows it); `loseNextBroadcastAnswer` cuts the connection of the next one
 *   after taking it, as a TronGrid timeout would (the gateway's BroadcastUncertainError);
 * - /wallet/triggerconstantcontract answers `balanceOf` from the balances the transfers moved.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { tronAddress, tronBase58check } from '../../../engine/chain/encoding';
import { triggerTransaction } from './tron-protobuf';

const TRANSFER_TOPIC = 'ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

export interface ChainTransfer {
  txId: string;
  from: string;
  to: string;
  amount: bigint;
  block: number;
  timestamp: number;
}

export interface Broadcast {
  body: Record<string, unknown>;
  accepted: boolean;
}

export interface TronNode {
  url: string;
  head(): number;
  /** Adds `blocks` blocks on top of the head. */
  mine(blocks: number): void;
  /** A TRC-20 transfer of the token in a new block; answers its txID. */
  pay(from: string, to: string, amount: bigint): string;
  balance(address: string): bigint;
  readonly transfers: ChainTransfer[];
  readonly broadcasts: Broadcast[];
  /**
   * The next broadcast is taken (validated, included in a block) but its answer is lost: the connection is
   * cut before the response, as when TronGrid times out.
   */
  loseNextBroadcastAnswer(): void;
  /** Paths the gateway asked for, with the TRON-PRO-API-KEY header it sent. */
  readonly requests: Array<{ path: string; apiKey: string | undefined }>;
  stop(): Promise<void>;
}

const hex21 = (address: string) => bytesToHex(tronBase58check.decode(address));
const base58 = (hex: string) => tronAddress(hexToBytes(hex.replace(/^41/, '').padStart(40, '0')));
const word = (hex: string) => hex.padStart(64, '0');

export async function startTronNode(options: { token: string; start?: number }): Promise<TronNode> {
  const token = options.token;
  let head = options.start ?? 60_000_000;
  const firstBlock = head;
  const baseTime = Date.now();
  const timeOf = (block: number) => baseTime + (block - firstBlock) * 3_000;
  const blockId = (block: number) =>
    block.toString(16).padStart(16, '0') +
    bytesToHex(sha256(Uint8Array.of(block & 0xff, block >> 8))).slice(16);
  const transfers: ChainTransfer[] = [];
  const broadcasts: Broadcast[] = [];
  const requests: TronNode['requests'] = [];
  const balances = new Map<string, bigint>();
  const byTx = new Map<string, ChainTransfer>();
  let loseAnswer = false;

  function move(txId: string, from: string, to: string, amount: bigint): void {
    head += 1;
    const transfer = { txId, from, to, amount, block: head, timestamp: timeOf(head) };
    transfers.push(transfer);
    byTx.set(txId, transfer);
    balances.set(from, (balances.get(from) ?? 0n) - amount);
    balances.set(to, (balances.get(to) ?? 0n) + amount);
  }

  const routes: Record<string, (body: Record<string, unknown>, query: URLSearchParams) => unknown> = {
    'POST /wallet/getnowblock': () => ({
      blockID: blockId(head),
      block_header: {
        raw_data: {
          number: head,
          txTrieRoot: '0'.repeat(64),
          witness_address: '41' + '5a'.repeat(20),
          parentHash: blockId(head - 1),
          version: 30,
          timestamp: timeOf(head),
        },
        witness_signature: 'ab'.repeat(65),
      },
    }),
    'POST /wallet/gettransactioninfobyid': (body) => {
      const t = byTx.get(String(body['value']));
      if (!t) return {};
      return {
        id: t.txId,
        fee: 13_844_850,
        blockNumber: t.block,
        blockTimeStamp: t.timestamp,
        contractResult: [word('1')],
        contract_address: hex21(token),
        receipt: { energy_fee: 13_844_850, energy_usage_total: 65_895, net_usage: 345, result: 'SUCCESS' },
        log: [
          {
            address: hex21(token).slice(2),
            topics: [TRANSFER_TOPIC, word(hex21(t.from).slice(2)), word(hex21(t.to).slice(2))],
            data: word(t.amount.toString(16)),
          },
        ],
      };
    },
    // Known transactions: the broadcast ones (included at once here).
    'POST /wallet/gettransactionbyid': (body) => {
      const value = String(body['value']);
      const sent = broadcasts.find((b) => b.accepted && b.body['txID'] === value);
      return sent ? { ...sent.body, ret: [{ contractRet: 'SUCCESS' }] } : {};
    },
    'POST /wallet/triggersmartcontract': (body) => {
      if (body['function_selector'] !== 'transfer(address,uint256)' || body['contract_address'] !== token)
        return { result: { code: 'CONTRACT_VALIDATE_ERROR', message: 'unexpected call' } };
      const refBlock = head - 1;
      const transaction = triggerTransaction({
        refBlockBytes: refBlock.toString(16).padStart(16, '0').slice(12, 16),
        refBlockHash: blockId(refBlock).slice(16, 32),
        // TronGrid: the head block's time plus 60 s.
        expiration: Math.max(timeOf(head), Date.now()) + 60_000,
        timestamp: Date.now(),
        feeLimit: Number(body['fee_limit']),
        owner: hex21(String(body['owner_address'])),
        contract: hex21(token),
        data: 'a9059cbb' + String(body['parameter']),
        callValue: Number(body['call_value'] ?? 0),
      });
      return { result: { result: true }, energy_used: 31_895, transaction };
    },
    'POST /wallet/broadcasttransaction': (body) => {
      const raw = String(body['raw_data_hex']);
      const txId = String(body['txID']);
      const [signature] = (body['signature'] as string[] | undefined) ?? [];
      const value = (
        body['raw_data'] as {
          contract: Array<{ parameter: { value: { owner_address: string; data: string } } }>;
        }
      ).contract[0]?.parameter.value;
      let signer: string | null;
      try {
        const sig = hexToBytes(signature ?? '');
        const publicKey = secp256k1.Signature.fromBytes(sig.subarray(0, 64), 'compact')
          .addRecoveryBit((sig[64] ?? 0) >= 27 ? (sig[64] ?? 0) - 27 : (sig[64] ?? 0))
          .recoverPublicKey(hexToBytes(txId))
          .toBytes(false);
        signer = tronAddress(keccak_256(publicKey.subarray(1)).subarray(12));
      } catch {
        signer = null;
      }
      const accepted =
        bytesToHex(sha256(hexToBytes(raw))) === txId && !!value && signer === value.owner_address;
      broadcasts.push({ body, accepted });
      if (!accepted || !value)
        return { result: false, code: 'SIGERROR', message: 'validate signature error' };
      move(txId, value.owner_address, base58(value.data.slice(32, 72)), BigInt(`0x${value.data.slice(72)}`));
      return { result: true, txid: txId };
    },
    'POST /wallet/triggerconstantcontract': (body) => {
      if (body['function_selector'] === 'balanceOf(address)') {
        const owner = base58(String(body['parameter']).slice(24));
        return {
          result: { result: true },
          energy_used: 935,
          constant_result: [word((balances.get(owner) ?? 0n).toString(16))],
        };
      }
      return { result: { result: true }, energy_used: 31_895, constant_result: [word('1')] };
    },
    'POST /wallet/getchainparameters': () => ({
      chainParameter: [{ key: 'getEnergyFee', value: 210 }],
    }),
  };

  function trc20(address: string, query: URLSearchParams) {
    const since = Number(query.get('min_timestamp') ?? 0);
    const data = transfers
      .filter((t) => t.to === address && t.timestamp >= since && query.get('contract_address') === token)
      .map((t) => ({
        transaction_id: t.txId,
        token_info: { symbol: 'USDT', address: token, decimals: 6, name: 'Tether USD' },
        block_timestamp: t.timestamp,
        from: t.from,
        to: t.to,
        type: 'Transfer',
        value: t.amount.toString(),
      }));
    return { data, success: true, meta: { at: Date.now(), page_size: data.length } };
  }

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? '/', 'http://node');
    const header = request.headers['tron-pro-api-key'];
    requests.push({ path: url.pathname, apiKey: typeof header === 'string' ? header : undefined });
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    const account = /^\/v1\/accounts\/([1-9A-HJ-NP-Za-km-z]+)\/transactions\/trc20$/.exec(url.pathname);
    const route = routes[`${request.method ?? 'GET'} ${url.pathname}`];
    const lost = loseAnswer && url.pathname === '/wallet/broadcasttransaction';
    if (lost) loseAnswer = false;
    const answer =
      request.method === 'GET' && account?.[1]
        ? trc20(account[1], url.searchParams)
        : route?.(body, url.searchParams);
    if (lost) {
      request.socket.destroy();
      return;
    }
    response.writeHead(answer === undefined ? 404 : 200, { 'Content-Type': 'application/json' });
    response.end(JSON.stringify(answer ?? { Error: 'not found' }));
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      response.writeHead(500, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify({ Error: (error as Error).message }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    head: () => head,
    mine: (blocks) => {
      head += blocks;
    },
    pay: (from, to, amount) => {
      const txId = randomBytes(32).toString('hex');
      move(txId, from, to, amount);
      return txId;
    },
    balance: (address) => balances.get(address) ?? 0n,
    loseNextBroadcastAnswer: () => {
      loseAnswer = true;
    },
    transfers,
    broadcasts,
    requests,
    stop: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
