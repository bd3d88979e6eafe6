/**
 * docs/operations.md is what the operation table gives today: regenerated in memory and compared with
 * the committed page (`npm run build` rewrites it). A changed description, field, default, profile or
 * REPL command without the page rewritten fails here.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { operationsReference } from '../../src/frontends/reference.js';
import { operations } from '../../src/operations/registry.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('docs/operations.md', () => {
  it('is the page the operation table generates (npm run build rewrites it)', () => {
    const committed = readFileSync(path.join(REPO, 'docs', 'operations.md'), 'utf8');
    expect(committed).toBe(operationsReference(operations));
  });

  it('has a section for every operation, with its CLI spelling and its inputs', () => {
    const page = operationsReference(operations);
    for (const op of operations) {
      expect(page).toContain(`\n## ${op.name}\n`);
      expect(page).toContain(`- CLI: \`lspgate ${op.name}`);
    }
    expect(page).toMatch(/\| `symbol` \| string \|/);
  });
});
