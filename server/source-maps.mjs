// Preloaded by the production start (`node --import ./dist-server/source-maps.mjs ... dist-server/main.js`,
// package.json "server:start"; npm run build:server copies it next to main.js): error stacks point into
// server/*.ts through dist-server/main.js.map, as --enable-source-maps would, but the source maps of
// node_modules are not loaded. --enable-source-maps loads and keeps every dependency's map, sources
// included (viem, zod, the noble curves, dexie...): about 20 MB of heap per process for stack lines inside
// libraries (docs/SERVER.md "Memory").
import { setSourceMapsSupport } from 'node:module';

setSourceMapsSupport(true, { nodeModules: false, generatedCode: false });
