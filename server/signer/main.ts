/**
 * The signer process (`npm run signer`): reads its settings from its own environment (the hot wallet keys
 * are removed from it once read), opens its journal and serves server/signer/service.ts. Every variable,
 * its default and the refusals at start (a public development key on a non-local chain, a corrupt journal):
 * docs/OPERATIONS.md "The signer process". Logs one JSON line per decision; SIGINT/SIGTERM stop it (exit 0).
 */
import { isAddress, parseGwei, type Address, type Hex } from 'viem';
import { JournalError } from './journal';
import { createSignerService, SignerSettingsError, type SignerService } from './service';
import { tronSettingsProblem } from './tron';
import { parseAmount } from '../../engine/server';

function fail(message: string): never {
  console.error(`Strata signer not started: ${message}`);
  process.exit(1);
}

const env = process.env;
const key = env['SIGNER_EVM_KEY']?.trim();
delete env['SIGNER_EVM_KEY'];
const tronKey = env['SIGNER_TRON_KEY']?.trim();
delete env['SIGNER_TRON_KEY'];
if (!key || !/^0x[0-9a-fA-F]{64}$/.test(key))
  fail('SIGNER_EVM_KEY must be the hot wallet key, 0x and 64 hex digits');
const secret = env['SIGNER_TOKEN']?.trim();
if (!secret || secret.length < 32) fail('SIGNER_TOKEN must be a shared secret of at least 32 characters');
const token = env['EVM_USDT_ADDRESS']?.trim();
if (!token || !isAddress(token, { strict: false }))
  fail('EVM_USDT_ADDRESS must be the token contract address');

function integer(name: string, fallback: number | undefined, min: number): number | undefined {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < min) fail(`${name} must be an integer >= ${min}`);
  return value;
}

function limit(name: string): bigint {
  const raw = env[name]?.trim();
  if (!raw) return fail(`${name} is required: a positive USDT amount (up to 6 decimals)`);
  try {
    const value = parseAmount(raw);
    if (value <= 0n) throw new RangeError('not positive');
    return value;
  } catch {
    return fail(`${name} must be a positive USDT amount (up to 6 decimals)`);
  }
}

function gwei(name: string): bigint | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  if (!/^\d+(\.\d{1,9})?$/.test(raw)) return fail(`${name} must be a positive amount of gwei`);
  return parseGwei(raw);
}

const tronToken = env['TRON_USDT_ADDRESS']?.trim();
if (tronKey && !/^(0x)?[0-9a-fA-F]{64}$/.test(tronKey))
  fail('SIGNER_TRON_KEY must be the TRON hot wallet key, 64 hex digits');
if (tronKey && !tronToken)
  fail('TRON_USDT_ADDRESS (the TRC-20 token, base58) is required with SIGNER_TRON_KEY');
if (tronToken && !tronKey) fail('TRON_USDT_ADDRESS set without SIGNER_TRON_KEY');
const tronMaxFee = integer('SIGNER_TRON_MAX_FEE_LIMIT', 100_000_000, 1);

const host = env['SIGNER_HOST']?.trim() || '127.0.0.1';
const port = integer('SIGNER_PORT', 8788, 0) ?? 8788;
const tron =
  tronKey && tronToken
    ? { key: tronKey, token: tronToken, maxFeeLimit: BigInt(tronMaxFee ?? 100_000_000) }
    : undefined;
const tronProblem = tron && tronSettingsProblem(tron);
if (tronProblem) fail(tronProblem);
const stateFile = env['SIGNER_STATE_FILE']?.trim() || './.signer/journal.jsonl';
let service: SignerService;
try {
  service = createSignerService({
    key: key as Hex,
    secret,
    tokenContract: token as Address,
    chainId: integer('SIGNER_EVM_CHAIN_ID', undefined, 1) ?? fail('SIGNER_EVM_CHAIN_ID is required'),
    decimals: integer('EVM_USDT_DECIMALS', 6, 6),
    maxPerTx: limit('SIGNER_MAX_PER_TX'),
    maxPerDay: limit('SIGNER_MAX_PER_DAY'),
    maxGas: ((gas) => (gas === undefined ? undefined : BigInt(gas)))(
      integer('SIGNER_EVM_MAX_GAS', undefined, 21_000),
    ),
    maxFeePerGas: gwei('SIGNER_EVM_MAX_GWEI'),
    stateFile,
    log: (entry) => console.log(JSON.stringify({ time: new Date().toISOString(), level: 'info', ...entry })),
    tron,
  });
} catch (error) {
  if (error instanceof JournalError)
    fail(`SIGNER_STATE_FILE ${stateFile}: ${error.message} (fix or move the file; it is never rewritten)`);
  if (error instanceof SignerSettingsError) fail(error.message);
  throw error;
}

let url: string;
try {
  url = await service.listen(port, host);
} catch (error) {
  fail(`cannot listen on ${host}:${port}: ${(error as Error).message}`);
}
console.log(
  JSON.stringify({
    time: new Date().toISOString(),
    msg: 'listening',
    url,
    address: service.address,
    ...(service.tronAddress ? { tronAddress: service.tronAddress } : {}),
  }),
);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => process.exit(1), 5_000).unref();
    void service.close().then(() => process.exit(0));
  });
}
