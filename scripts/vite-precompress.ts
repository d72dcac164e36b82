/**
 * Vite plugin: every text file of the build gets Brotli (`.br`) and gzip (`.gz`) siblings, compressed once at
 * build time at the highest levels, so the server sends them as they are (`@fastify/static`'s
 * `preCompressed`, server/http.ts) instead of compressing each response again, and a slow mobile link carries
 * the smallest form. It runs when the whole build is on disk (`closeBundle`, after the shell has rewritten
 * index.html and the service worker is written), so no compressed copy can be older than its file.
 * (vite-plugin-compression2 compresses inside the bundle step, before this project's index.html is final:
 * DECISIONS.md.)
 */
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin, ResolvedConfig } from 'vite';

const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|webmanifest|txt|xml)$/;
/** Below this a compressed copy saves less than its headers cost. */
const MIN_BYTES = 1024;

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

async function* files(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (entry.isFile()) yield path;
  }
}

/** Writes `<file>.br` and `<file>.gz` beside every compressible file of `dir`; answers how many files. */
export async function precompress(dir: string): Promise<number> {
  const jobs: Promise<void>[] = [];
  for await (const path of files(dir)) {
    if (!COMPRESSIBLE.test(path) || (await stat(path)).size < MIN_BYTES) continue;
    jobs.push(
      readFile(path).then(async (source) => {
        const [br, gzipped] = await Promise.all([
          brotli(source, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
              [constants.BROTLI_PARAM_SIZE_HINT]: source.length,
            },
          }),
          gz(source, { level: constants.Z_BEST_COMPRESSION }),
        ]);
        // A copy that is not smaller is not written: the server then sends the file itself.
        if (br.length < source.length) await writeFile(`${path}.br`, br);
        if (gzipped.length < source.length) await writeFile(`${path}.gz`, gzipped);
      }),
    );
  }
  await Promise.all(jobs);
  return jobs.length;
}

export function precompressBuild(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'strata-precompress',
    apply: 'build',
    enforce: 'post',
    configResolved(resolved) {
      config = resolved;
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        const count = await precompress(resolve(config.root, config.build.outDir));
        config.logger.info(`precompress: ${count} files with .br and .gz siblings`);
      },
    },
  };
}
