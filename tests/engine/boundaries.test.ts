/**
 * The lint rules that hold the boundaries (docs/ARCHITECTURE.md "Boundaries") fail on a deliberate
 * violation: each case lints a file's would-be text under its real path with the project's own
 * eslint.config.js, so a rule that stopped matching fails here instead of passing silently.
 */
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: process.cwd() });
});

async function rulesBroken(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((m) => m.ruleId ?? m.message);
}

// The first lint parses much of engine/ for the cycle rule: seconds of CPU on a busy machine.
describe('boundaries (eslint.config.js)', { timeout: 90_000 }, () => {
  it('server/ reaches the engine through engine/index.ts and engine/server.ts only', async () => {
    expect(
      await rulesBroken(
        'server/boundary-probe.ts',
        "import { formatAmount } from '../engine/money';\nexport const shown = formatAmount(1n);\n",
      ),
    ).toEqual(['no-restricted-imports']);
    expect(
      await rulesBroken(
        'server/boundary-probe.ts',
        "import { formatMicro } from '../engine/index';\nimport { formatAmount } from '../engine/server';\n" +
          'export const shown = [formatMicro(1n), formatAmount(1n)];\n',
      ),
    ).toEqual([]);
  });

  it("server/ does not reach into a dependency's internals", async () => {
    expect(
      await rulesBroken(
        'server/boundary-probe.ts',
        "import type { FastifyRateLimitStore } from '@fastify/rate-limit/store/LocalStore.js';\nexport type S = FastifyRateLimitStore;\n",
      ),
    ).toEqual(['no-restricted-imports']);
  });

  it('src/ may not import the server entry of the engine', async () => {
    expect(
      await rulesBroken(
        'src/lib/boundary-probe.ts',
        "import { formatAmount } from '../../engine/server';\nexport const shown = formatAmount(1n);\n",
      ),
    ).toEqual(['no-restricted-imports']);
  });

  it('the console reaches the operator API through contract/admin, its route table as types only', async () => {
    expect(
      await rulesBroken(
        'src/admin/boundary-probe.ts',
        "import type { AdminWithdrawal } from '../../server/admin/queries/withdrawals';\nexport type W = AdminWithdrawal;\n",
      ),
    ).toEqual(['no-restricted-imports']);
    expect(
      await rulesBroken(
        'src/admin/boundary-probe.ts',
        "import { ADMIN_ROUTES } from '../../contract/admin/routes';\nexport const routes = ADMIN_ROUTES;\n",
      ),
    ).toEqual(['no-restricted-imports']);
    expect(
      await rulesBroken(
        'src/admin/boundary-probe.ts',
        "import type { AdminData } from '../../contract/admin/routes';\nimport { ROLE_GRANTS } from '../../contract/admin/model';\n" +
          "export type Me = AdminData<'GET /api/admin/me'>;\nexport const grants = ROLE_GRANTS;\n",
      ),
    ).toEqual([]);
  });

  it('the micro-unit scale is defined in engine/money.ts alone', async () => {
    const copy = 'export const UNIT = 1_000_000n;\n';
    expect(await rulesBroken('engine/trading/boundary-probe.ts', copy)).toEqual(['no-restricted-syntax']);
    expect(await rulesBroken('server/boundary-probe.ts', copy)).toEqual(['no-restricted-syntax']);
    expect(await rulesBroken('engine/trading/boundary-probe.ts', 'export const U = 10n ** 6n;\n')).toEqual([
      'no-restricted-syntax',
    ]);
  });

  it('an import that closes a cycle fails (engine/market/market.ts already imports engine/trading/mark.ts)', async () => {
    const text = "import { MarketSim } from '../market/market';\nexport const sim = MarketSim;\n";
    expect(await rulesBroken('engine/trading/mark.ts', text)).toContain('import-x/no-cycle');
  });
});
