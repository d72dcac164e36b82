/**
 * Every Vite and Vitest start loads vite.config.ts / vitest.config.ts and what they import from scripts/.
 * Vite warns (11 lines, on every start) when that code needs its bundling config loader: an import without
 * its file extension cannot be loaded by `configLoader: 'native'`, which Vite plans to make the default. The
 * config files and scripts/ name their imports' extensions (tsconfig allowImportingTsExtensions).
 */
import { resolve } from 'node:path';
import { createLogger, loadConfigFromFile, type Logger } from 'vite';
import { describe, expect, it } from 'vitest';

function recordingLogger(lines: string[]): Logger {
  const logger = createLogger('silent');
  return { ...logger, warn: (msg) => lines.push(msg), warnOnce: (msg) => lines.push(msg) };
}

describe('Vite config', () => {
  for (const file of ['vite.config.ts', 'vitest.config.ts']) {
    it(`${file} loads without the config loader's warning`, async () => {
      const warnings: string[] = [];
      const loaded = await loadConfigFromFile(
        { command: 'build', mode: 'production' },
        resolve(file),
        resolve('.'),
        'warn',
        recordingLogger(warnings),
      );
      expect(loaded?.config).toBeTruthy();
      expect(warnings).toEqual([]);
    });
  }
});
