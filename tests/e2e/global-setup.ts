/**
 * Serves the production build (dist/, made by `vite build` before this project runs) with `vite preview`
 * on a free loopback port, and hands its address to the end-to-end tests. The live build (dist-live/) is
 * made here too, once, before the test files run two at a time: two files building it at once would
 * overwrite each other's output.
 */
import { preview, type PreviewServer } from 'vite';
import type { TestProject } from 'vitest/node';
import { existsSync } from 'node:fs';
import { buildLiveApp } from './live-server';

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
  }
}

let server: PreviewServer | undefined;

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (!existsSync('dist/index.html'))
    throw new Error('dist/ is missing: run `vite build` before the e2e tests');
  buildLiveApp();
  server = await preview({ preview: { host: '127.0.0.1', port: 0, strictPort: false }, logLevel: 'warn' });
  const address = server.httpServer.address();
  if (!address || typeof address === 'string') throw new Error('preview server has no port');
  project.provide('baseURL', `http://127.0.0.1:${address.port}`);
  return async () => {
    await server?.close();
  };
}
