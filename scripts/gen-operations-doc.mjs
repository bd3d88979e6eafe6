// Writes docs/operations.md from the operation table (src/frontends/reference.ts): each operation's
// description, inputs, outputs, errors, annotations, profiles and CLI/REPL spelling. Run after tsc
// (it reads dist/). The page is committed so that it reads on GitHub; test/unit/operations-doc.test.ts
// fails when it differs from what the table gives.
import { mkdirSync, writeFileSync } from 'node:fs';
import { operationsReference } from '../dist/src/frontends/reference.js';
import { operations } from '../dist/src/operations/registry.js';

const dir = new URL('../docs/', import.meta.url);
mkdirSync(dir, { recursive: true });
writeFileSync(new URL('operations.md', dir), operationsReference(operations));
