// Writes src/cli/thin/operations.json (and its copy in dist/) from the operation table: what the thin
// `lspgate` entry knows of the operations without loading them (zod, the service, the servers) — their
// names for `mcp --tools`, titles and REPL commands for `--help`, each one's `<operation> --help` text.
// Run after tsc (it reads dist/). The file is committed so that tests of the thin entry run from the
// sources; test/unit/thin-tools.test.ts fails when it differs from the table.
import { mkdirSync, writeFileSync } from 'node:fs';
import { operationHelp } from '../dist/src/frontends/help.js';
import { operations } from '../dist/src/operations/registry.js';

const table = {
  generated: 'by scripts/gen-operation-list.mjs from src/operations (npm run build): do not edit',
  operations: operations.map((op) => ({
    name: op.name,
    title: op.title,
    ...(op.repl ? { repl: op.repl.command } : {}),
    profile: op.profile ?? 'all',
    help: operationHelp(op),
  })),
};
const text = JSON.stringify(table, null, 2) + '\n';
for (const dir of ['../src/cli/thin/', '../dist/src/cli/thin/']) {
  const url = new URL(dir, import.meta.url);
  mkdirSync(url, { recursive: true });
  writeFileSync(new URL('operations.json', url), text);
}
