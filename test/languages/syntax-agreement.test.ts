// The one catalog (parse trees) lists what each language's server lists (tsserver, gopls, pyright,
// intelephense): on the language fixtures, the background verification asked of every file agrees
// with the catalog on every symbol — same ids, byte ranges, name positions and kinds (rate 0).
import { describe, expect, it } from 'vitest';

import type { WorkspaceCatalog } from '../../src/catalog/catalog.js';
import { ServiceCataloger } from '../../src/service/cataloging/cataloger.js';
import { verifySample } from '../../src/service/workspace/verification.js';
import { openFixture } from '../helpers/gateway.js';
import { goAvailable } from '../helpers/go.js';

const FIXTURES = [
  { language: 'typescript', fixture: 'ts-app' },
  { language: 'go', fixture: 'go-app', needsGo: true },
  { language: 'python', fixture: 'py-app' },
  { language: 'php', fixture: 'php-app' },
];

for (const f of FIXTURES) {
  describe.skipIf(f.needsGo && !goAvailable)(`${f.language}: the catalog and the server agree`, async () => {
    const fx = await openFixture(f.fixture);

    it(`${f.fixture}: every file verified, disagreement rate 0`, async () => {
      const built = await fx.run('index_folder', { path: fx.root });
      expect(built.state).toBe('ready');
      const cat = (await fx.gateway.workspaceFor(fx.root)).catalog as WorkspaceCatalog;
      // the whole workspace as the sample (the background verification asks 16 files per server)
      await verifySample(cat, new ServiceCataloger(fx.gateway.context, fx.root), fx.gateway.context.logger, Infinity);
      const tiers = cat.status().tiers!;
      expect(tiers.server_files).toBe(0);
      expect(tiers.disagreement.files_sampled).toBe(tiers.syntax_files);
      expect(tiers.disagreement.files_compared).toBe(tiers.syntax_files);
      expect(tiers.disagreement.server_symbols).toBe(built.symbols);
      expect(tiers.disagreement).toMatchObject({ only_syntax: 0, only_server: 0, differing: 0, rate: 0 });
    });
  });
}
