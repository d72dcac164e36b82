// Preloaded FIRST by every server start (package.json "server:start", "server", "signer", "admin:create";
// npm run build:server copies it next to main.js): on a Node older than the project's, the start stops here
// with one line that says so, before any module that needs Node 24 is linked (on Node 20,
// source-maps.mjs would otherwise fail with "does not provide an export named 'setSourceMapsSupport'").
// npm scripts run on the project's own Node 24 (the `node` package is a runtime dependency: its binary is
// node_modules/.bin/node, which npm puts first on a script's PATH), so this line is only seen when a service
// unit or a shell calls another `node` directly (docs/DEPLOY.md "Build and install").
const REQUIRED_MAJOR = 24;
const major = Number(process.versions.node.split('.')[0]);
if (!(major >= REQUIRED_MAJOR)) {
  process.stderr.write(
    `Node ${REQUIRED_MAJOR} required: this is Node ${process.versions.node} (${process.execPath}). ` +
      `Start through npm (npm run server:start, npm run signer), which runs node_modules/.bin/node ` +
      `(the "node" package, installed by npm ci --omit=dev), or call that binary in the service unit.\n`,
  );
  process.exit(1);
}
