/**
 * Vite plugin: the build report's module view. Writes, outside dist/ (so the service worker never precaches
 * it), `build-report/treemap.html` (rollup-plugin-visualizer: every chunk and the modules in it, gzip sizes)
 * and `build-report/modules.json`: for each emitted JS chunk, its static imports and each module's rendered
 * bytes and gzip size alone. scripts/bundle-budget.ts reads the JSON to print each module's share of /home's
 * critical path.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';
import { visualizer } from 'rollup-plugin-visualizer';

export const REPORT_DIR = resolve(import.meta.dirname, '../build-report');
export const MODULES_JSON = join(REPORT_DIR, 'modules.json');

export interface ModuleEntry {
  /** Path relative to the project (node_modules/… for packages), or a virtual module's id. */
  id: string;
  rendered: number;
  gzip: number;
}

export interface ChunkEntry {
  file: string;
  imports: string[];
  dynamicImports: string[];
  modules: ModuleEntry[];
}

const root = resolve(import.meta.dirname, '..');

function shortId(id: string): string {
  const clean = id.replace(/^\0/, '').replace(/\?.*$/, '');
  return clean.startsWith('/') ? relative(root, clean) : clean;
}

function moduleList(): Plugin {
  return {
    name: 'strata-bundle-modules',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks: ChunkEntry[] = [];
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        const modules: ModuleEntry[] = [];
        for (const [id, info] of Object.entries(chunk.modules)) {
          const code = info.code ?? '';
          if (!code) continue;
          modules.push({
            id: shortId(id),
            rendered: info.renderedLength,
            gzip: gzipSync(code, { level: 9 }).length,
          });
        }
        chunks.push({
          file: chunk.fileName,
          imports: [...chunk.imports],
          dynamicImports: [...chunk.dynamicImports],
          modules,
        });
      }
      mkdirSync(REPORT_DIR, { recursive: true });
      writeFileSync(MODULES_JSON, JSON.stringify(chunks, null, 1));
    },
  };
}

/** Only the client build: the worker bundle would otherwise overwrite the report with its own modules. */
export function bundleReport(): Plugin[] {
  return [
    moduleList(),
    visualizer({
      filename: join(REPORT_DIR, 'treemap.html'),
      template: 'treemap',
      title: 'Strata bundle',
      gzipSize: true,
      projectRoot: root,
    }) as Plugin,
  ];
}
