// rename_symbol on copies of the knowledge-* fixtures: a function renamed across three files, one of
// which imports it under an alias. Preview (diff, counts = references + declaration, hashes), apply
// (files written, the project still type-checks by the servers' own diagnostics, references to the
// new name equal the old count), CONTENT_MODIFIED when a file changed since the preview, and the
// refusals that come from the server's answer.
import { createHash } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { goAvailable } from '../helpers/go.js';
import { positionOf } from '../helpers/positions.js';
import type { EditFileEntry, ReferenceEntry } from '../helpers/results.js';
import { openScratch } from '../helpers/scratch.js';

const sha = (t: string) => createHash('sha256').update(t).digest('hex');

const CASES = [
  {
    fixture: 'knowledge-ts',
    old: 'formatTotal',
    new: 'priceLabel',
    files: ['src/format.ts', 'src/report.ts', 'src/summary.ts'],
    edits: [1, 2, 1],
    commentEdits: 0,
    aliasLine: "import { priceLabel as money } from './format.js';",
    library: { file: 'src/shapes.ts', needle: 'Math.PI' },
  },
  {
    fixture: 'knowledge-go',
    old: 'FormatTotal',
    new: 'PriceLabel',
    files: ['format/format.go', 'report/report.go', 'summary/summary.go'],
    // gopls also renames the name in the function's doc comment
    edits: [2, 1, 1],
    commentEdits: 1,
    aliasLine: '\treturn money.PriceLabel(cents, "USD")',
    library: { file: 'shapes/shapes.go', needle: 'Pi *' },
  },
  {
    fixture: 'knowledge-py',
    old: 'format_total',
    new: 'price_label',
    files: ['knowledge/pricing.py', 'knowledge/report.py', 'knowledge/summary.py'],
    edits: [1, 2, 1],
    commentEdits: 0,
    aliasLine: 'from knowledge.pricing import price_label as money',
    library: { file: 'knowledge/shapes.py', needle: 'pi *' },
  },
];

for (const c of CASES) {
  describe.runIf(c.fixture !== 'knowledge-go' || goAvailable)(`rename_symbol: ${c.fixture}`, async () => {
    const fx = await openScratch(c.fixture);

    it('preview: a diff per file, edits = references + declaration, nothing written', async () => {
      const before = c.files.map((f) => fx.read(f));
      const refs = await fx.run('find_references', { symbol: c.old, include_declaration: true });
      const r = await fx.run('rename_symbol', { symbol: c.old, new_name: c.new });
      expect(r.files.map((f: EditFileEntry) => [f.file, f.edits, f.content_hash])).toEqual(c.files.map((f, i) => [f, c.edits[i], sha(before[i]!)]));
      // tsserver's references also list the uses of an import alias (`money(...)`), which a rename keeps
      const named = refs.references.filter((x: ReferenceEntry) => x.preview!.lines[x.line - x.preview!.start_line]!.slice(x.column - 1).startsWith(c.old));
      expect([r.old_name, r.applied, r.total_files, r.total_edits]).toEqual([c.old, false, 3, named.length + c.commentEdits]);
      expect(r.files[2].diff).toContain(`+${c.aliasLine}`);
      expect(r.files[0].diff).toMatch(/^--- a\//);
      expect(c.files.map((f) => fx.read(f))).toEqual(before);
    });

    it('apply with a file changed since the preview: CONTENT_MODIFIED, nothing written', async () => {
      const preview = await fx.run('rename_symbol', { symbol: c.old, new_name: c.new });
      const expected = Object.fromEntries(preview.files.map((f: EditFileEntry) => [f.file, f.content_hash]));
      const original = fx.read(c.files[1]!);
      fx.write(c.files[1]!, original + '\n');
      const err = await fx.runError('rename_symbol', { symbol: c.old, new_name: c.new, apply: true, expected_hashes: expected });
      expect([err.code, err.details?.files]).toEqual(['CONTENT_MODIFIED', [c.files[1]]]);
      expect(fx.read(c.files[0]!)).toContain(c.old);
      fx.write(c.files[1]!, original);
    });

    it('apply: files written, the project still type-checks, references to the new name equal the old count', async () => {
      const refs = await fx.run('find_references', { symbol: c.old });
      const preview = await fx.run('rename_symbol', { symbol: c.old, new_name: c.new });
      const expected = Object.fromEntries(preview.files.map((f: EditFileEntry) => [f.file, f.content_hash]));
      const r = await fx.run('rename_symbol', { symbol: c.old, new_name: c.new, apply: true, expected_hashes: expected });
      expect([r.applied, r.total_edits]).toEqual([true, preview.total_edits]);
      expect(r.files.map((f: EditFileEntry) => f.new_hash)).toEqual(c.files.map((f) => sha(fx.read(f))));
      expect(fx.read(c.files[2]!).split('\n')).toContain(c.aliasLine);
      const diag = await fx.run('get_diagnostics', { files: c.files, severity: 'error' });
      expect([diag.counts.error, diag.failed]).toEqual([0, []]);
      const after = await fx.run('find_references', { symbol: c.new });
      expect(after.total).toBe(refs.total);
      expect((await fx.runError('find_references', { symbol: c.old })).code).toBe('SYMBOL_NOT_FOUND');
    });

    it('a name from the standard library cannot be renamed: INVALID_INPUT from the server', async () => {
      const p = positionOf(fx.root, c.library.file, c.library.needle, { offset: c.library.needle.startsWith('Math') ? 5 : 0 });
      const err = await fx.runError('rename_symbol', { file: c.library.file, line: p.line, column: p.column, new_name: 'other' });
      expect(err.code).toBe('INVALID_INPUT');
    });
  });
}

describe.runIf(goAvailable)('rename_symbol: gopls refuses a name that breaks other packages', async () => {
  const fx = await openScratch('knowledge-go');
  it("INVALID_INPUT with gopls's own reason", async () => {
    const err = await fx.runError('rename_symbol', { symbol: 'FormatTotal', new_name: 'priceLabel' });
    expect(err.code).toBe('INVALID_INPUT');
    expect(err.details?.lspMessage).toContain('would make it unexported');
  });
});

describe('rename_symbol: intelephense without a licence has no rename', async () => {
  const fx = await openScratch('knowledge-php');
  it('NOT_SUPPORTED, and no file is touched', async () => {
    const before = fx.read('src/Billing/Pricing.php');
    const err = await fx.runError('rename_symbol', { symbol: 'formatTotal', new_name: 'priceLabel', apply: true });
    expect(err.code).toBe('NOT_SUPPORTED');
    expect(fx.read('src/Billing/Pricing.php')).toBe(before);
  });
});
