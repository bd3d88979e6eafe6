// The syntax tier lists what each language's server lists (tsserver, gopls, pyright, intelephense):
// on the language fixtures, every file's syntax entry and the server entry that replaces it agree
// on every symbol — same ids, byte ranges, name positions and kinds (disagreement rate 0).
import { describe, expect, it } from 'vitest';
import { goAvailable } from '../helpers/go.js';
import { openFixture } from '../helpers/gateway.js';

interface Tiers {
  syntax_files: number;
  server_files: number;
  disagreement: { files_compared: number; server_symbols: number; only_syntax: number; only_server: number; differing: number; rate: number };
}

const FIXTURES = [
  { language: 'typescript', fixture: 'ts-app' },
  { language: 'go', fixture: 'go-app', needsGo: true },
  { language: 'python', fixture: 'py-app' },
  { language: 'php', fixture: 'php-app' },
];

for (const f of FIXTURES) {
  describe.skipIf(f.needsGo && !goAvailable)(`${f.language}: syntax and server catalogs agree`, async () => {
    const fx = await openFixture(f.fixture);

    it(`${f.fixture}: disagreement rate 0 over every file`, async () => {
      const built = await fx.run('index_folder', { path: fx.root });
      expect(built.state).toBe('ready');
      const tiers = built.tiers as Tiers;
      expect(tiers.syntax_files).toBe(0);
      expect(tiers.disagreement.files_compared).toBe(tiers.server_files);
      expect(tiers.disagreement.server_symbols).toBe(built.symbols);
      expect(tiers.disagreement).toMatchObject({ only_syntax: 0, only_server: 0, differing: 0, rate: 0 });
    });
  });
}
