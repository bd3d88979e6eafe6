#!/usr/bin/env node
/**
 * `node test/helpers/test-frontend.mjs <mcp|mcp-http|sidecar|repl> --root DIR [--servers FILE]`: the built
 * front-ends (dist/) serving the test-only operation table, for spawned-process tests that must
 * not depend on the real operations. Same lifecycle code as `lspgate`.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/src');
const imp = (p) => import(path.join(dist, p));

const [mode, ...rest] = process.argv.slice(2);
const { values } = parseArgs({ args: rest, options: { root: { type: 'string' }, port: { type: 'string' }, servers: { type: 'string', multiple: true } } });
const { Gateway } = await imp('gateway/gateway.js');
const { LspgateError } = await imp('errors/errors.js');
const { withMeta } = await imp('schema/meta.js');
const { testOperations } = await import('./test-operations.mjs');
const gateway = await Gateway.create({
  root: values.root ?? process.cwd(),
  serversFiles: values.servers ?? [],
  operations: testOperations({ LspgateError, withMeta }),
});

if (mode === 'mcp') (await imp('frontends/mcp/stdio.js')).runMcpStdio(gateway);
else if (mode === 'mcp-http') await (await imp('frontends/mcp/http.js')).runMcpHttp(gateway, { port: Number(values.port ?? 0) });
else if (mode === 'sidecar') (await imp('frontends/sidecar/sidecar.js')).runSidecar(gateway);
else if (mode === 'repl') (await imp('frontends/repl/repl.js')).runRepl(gateway);
else {
  process.stderr.write(`unknown mode ${mode}\n`);
  process.exit(2);
}
