/**
 * Solvency (every operator): what the platform owes members against what its wallets hold, as each chain
 * gateway last reported it; a failed or missing report shows the last one (its time says how old), or 0. The
 * latest proof-of-reserves snapshot's published total stands against the same holdings.
 */
import type { FastifyInstance } from 'fastify';
import type { Solvency } from '../../../contract/admin/model';
import { formatAmount } from '../../../engine/server';
import { latestSnapshot, liabilities } from '../queries/solvency';
import { adminRoute, type AdminOptions } from '../route';

/** A gateway's balance report that takes longer than this keeps the last one. */
const REPORT_TIMEOUT_MS = 3_000;

export async function solvencyRoutes(app: FastifyInstance, { gateways }: AdminOptions): Promise<void> {
  const lastHoldings = new Map<string, { network: string; address: string; amount: bigint; at: number }>();

  adminRoute(app, 'GET /api/admin/solvency', async ({ sql, now }) => {
    const byAccountMicro = await liabilities(sql.driver, sql.schema);
    const owed = [...byAccountMicro.values()].reduce((a, b) => a + b, 0n);
    const holdings: Solvency['holdings'] = [];
    for (const network of ['TRC20', 'ERC20'] as const) {
      const gateway = gateways[network];
      if (gateway?.walletBalance) {
        try {
          const reported = await Promise.race([
            gateway.walletBalance(),
            new Promise<never>((_resolve, reject) =>
              setTimeout(() => reject(new Error('timeout')), REPORT_TIMEOUT_MS).unref(),
            ),
          ]);
          lastHoldings.set(network, { network, ...reported, at: now });
        } catch {
          // Keeps the last report (its time says how old it is).
        }
      }
      const last = lastHoldings.get(network);
      holdings.push(
        last
          ? {
              network,
              address: last.address,
              amount: formatAmount(last.amount),
              at: Math.floor(last.at / 1000),
            }
          : { network, address: '', amount: '0', at: null },
      );
    }
    const held = [...lastHoldings.values()].reduce((a, b) => a + b.amount, 0n);
    const latest = await latestSnapshot(sql.driver, sql.schema);
    return {
      liabilities: formatAmount(owed),
      byAccount: Object.fromEntries([...byAccountMicro].map(([k, v]) => [k, formatAmount(v)])),
      holdings,
      holdingsTotal: formatAmount(held),
      surplus: formatAmount(held - owed),
      ratio: owed === 0n ? null : ratio(held, owed),
      // The published total (what members can check their share of) against the same holdings.
      snapshot: latest && {
        id: latest.id,
        time: latest.time,
        total: formatAmount(latest.total),
        leafCount: latest.leafCount,
        root: latest.root,
        demo: latest.demo,
        surplus: formatAmount(held - latest.total),
        ratio: latest.total === 0n ? null : ratio(held, latest.total),
      },
    };
  });
}

/** held / owed with 4 decimals, rounded down. */
function ratio(held: bigint, owed: bigint): string {
  const scaled = (held * 10_000n) / owed;
  const sign = scaled < 0n ? '-' : '';
  const abs = scaled < 0n ? -scaled : scaled;
  return `${sign}${abs / 10_000n}.${(abs % 10_000n).toString().padStart(4, '0')}`;
}
