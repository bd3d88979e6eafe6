// code_actions on copies of the knowledge-* fixtures: the unused import of broken.* is removed by
// the server's own action (TypeScript quickfix, gopls organize imports), previewed as a diff, then
// applied against the preview's hashes; the diagnostics afterwards no longer report it.
import { describe, expect, it } from 'vitest';

import { goAvailable } from '../helpers/go.js';
import type { ActionEntry, DiagnosticEntry } from '../helpers/results.js';
import { openScratch } from '../helpers/scratch.js';

const CASES = [
  {
    fixture: 'knowledge-ts',
    file: 'src/broken.ts',
    title: "Remove import from './shapes.js'",
    kind: 'quickfix',
    removed: "import { Circle } from './shapes.js';",
    code: '6133',
    commandOnly: 'Convert named imports to namespace import',
  },
  {
    fixture: 'knowledge-go',
    file: 'broken/broken.go',
    title: 'Organize Imports',
    kind: 'source.organizeImports',
    removed: 'import "strings"',
    code: 'UnusedImport',
    commandOnly: 'Browse free symbols',
  },
];

for (const c of CASES) {
  describe.runIf(c.fixture !== 'knowledge-go' || goAvailable)(`code_actions: ${c.fixture}`, async () => {
    const fx = await openScratch(c.fixture);

    it('preview: the action that removes the unused import, as a diff; nothing written', async () => {
      const before = fx.read(c.file);
      const r = await fx.run('code_actions', { file: c.file, start_line: 1 });
      const action = r.actions.find((a: ActionEntry) => a.title === c.title);
      expect(action).toMatchObject({ kind: c.kind, files: [{ file: c.file, edits: expect.any(Number) }] });
      expect(action.files[0].diff.split('\n')).toContain(`-${c.removed}`);
      expect(r.actions.find((a: ActionEntry) => a.title === c.commandOnly)).toMatchObject({ command: expect.any(String), files: [] });
      expect(fx.read(c.file)).toBe(before);
    });

    it('apply: refused for a command-only action and for a stale preview, then written', async () => {
      const r = await fx.run('code_actions', { file: c.file, start_line: 1 });
      const cmd = r.actions.find((a: ActionEntry) => a.title === c.commandOnly);
      expect((await fx.runError('code_actions', { file: c.file, start_line: 1, apply: cmd.index })).code).toBe('NOT_SUPPORTED');
      const action = r.actions.find((a: ActionEntry) => a.title === c.title);
      const expected = { [c.file]: action.files[0].content_hash };
      expect(
        (await fx.runError('code_actions', { file: c.file, start_line: 1, apply: action.index, expected_hashes: { [c.file]: '0'.repeat(64) } })).code,
      ).toBe('CONTENT_MODIFIED');
      const done = await fx.run('code_actions', { file: c.file, start_line: 1, apply: action.index, expected_hashes: expected });
      expect(done.applied).toBe(action.index);
      expect(fx.read(c.file)).not.toContain(c.removed);
      const diag = await fx.run('get_diagnostics', { file: c.file });
      expect(diag.files[0].diagnostics.map((d: DiagnosticEntry) => d.code)).not.toContain(c.code);
      expect(diag.counts.error).toBe(1); // the type error stays
    });
  });
}

describe('code_actions: pyright and intelephense', async () => {
  const py = await openScratch('knowledge-py');
  const php = await openScratch('knowledge-php');
  it('pyright offers no action for an unused import: an empty list from a server that was asked', async () => {
    const r = await py.run('code_actions', { file: 'knowledge/broken.py', start_line: 1 });
    expect(r.actions).toEqual([]);
  });
  it('intelephense without a licence has no code actions: NOT_SUPPORTED', async () => {
    expect((await php.runError('code_actions', { file: 'src/Broken.php' })).code).toBe('NOT_SUPPORTED');
  });
});
