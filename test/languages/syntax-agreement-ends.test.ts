// Where the syntax catalog's navigation tree reads a declaration's end from the text instead of the
// tree (a comment may end it: src/adapters/typescript/nav-nodes.ts endOf), the catalog still lists
// what tsserver lists: fixtures/ts-comment-ends holds declarations ending in line and block comments,
// text that only looks like one (`//` in a URL, `*/` in a string), members without `;` and a line
// longer than the look-back; every symbol agrees with the server (same ids, byte ranges, kinds).
import { describe, expect, it } from 'vitest';

import type { WorkspaceCatalog } from '../../src/catalog/catalog.js';
import { ServiceCataloger } from '../../src/service/cataloging/cataloger.js';
import { verifySample } from '../../src/service/workspace/verification.js';
import { openFixture } from '../helpers/gateway.js';

describe('typescript: declarations ending in comments agree with tsserver', async () => {
  const fx = await openFixture('ts-comment-ends');

  it('every symbol of ts-comment-ends agrees, disagreement rate 0', async () => {
    const built = await fx.run('index_folder', { path: fx.root });
    expect(built.state).toBe('ready');
    expect(built.symbols).toBeGreaterThan(50);
    const cat = (await fx.gateway.workspaceFor(fx.root)).catalog as WorkspaceCatalog;
    await verifySample(cat, new ServiceCataloger(fx.gateway.context, fx.root), fx.gateway.context.logger, Infinity);
    const tiers = cat.status().tiers!;
    expect(tiers.disagreement.files_compared).toBe(tiers.syntax_files);
    expect(tiers.disagreement.server_symbols).toBe(built.symbols);
    expect(tiers.disagreement).toMatchObject({ only_syntax: 0, only_server: 0, differing: 0, rate: 0 });
  });
});
