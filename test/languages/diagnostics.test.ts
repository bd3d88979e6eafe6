// get_diagnostics on the four knowledge-* fixtures (copied to a temp dir: the tests edit files).
// pyright indents the second line of a message with no-break spaces (\u00a0).
// Exact diagnostics of a file with an unused import and a type error; freshness: an error written
// into a clean file on disk, then removed, is reflected by each call with the new content's hash.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { goAvailable } from '../helpers/go.js';
import type { DiagnosticEntry, FileDiagnostics } from '../helpers/results.js';
import { openScratch } from '../helpers/scratch.js';

interface LanguageCase {
  fixture: string;
  broken: string;
  /** [line, column, severity, code, message] of the broken file, in answer order. */
  expected: [number, number, string, string | undefined, string][];
  clean: string;
  /** A line appended to the clean file that makes one error, and that error's [line, code, message]. */
  bad: { append: string; error: [number, string | undefined, string] };
  /** A comment line: an edit that changes no diagnostics. */
  comment: string;
  /** How the server's diagnostics are had: tsserver's own requests, the others' publishes. */
  mode: 'request' | 'push' | 'pull';
}

const CASES: LanguageCase[] = [
  {
    fixture: 'knowledge-ts',
    broken: 'src/broken.ts',
    expected: [
      [1, 1, 'hint', '6133', "'Circle' is declared but its value is never read."],
      [3, 14, 'error', '2322', "Type 'string' is not assignable to type 'number'."],
    ],
    clean: 'src/clean.ts',
    bad: { append: "export const bad: number = 'oops';\n", error: [4, '2322', "Type 'string' is not assignable to type 'number'."] },
    comment: '// note\n',
    mode: 'request',
  },
  {
    fixture: 'knowledge-go',
    broken: 'broken/broken.go',
    expected: [
      [4, 8, 'error', 'UnusedImport', '"strings" imported and not used'],
      [7, 17, 'error', 'IncompatibleAssign', 'cannot use "three" (untyped string constant) as int value in variable declaration'],
    ],
    clean: 'clean/clean.go',
    bad: {
      append: 'var Bad int = "oops"\n',
      error: [8, 'IncompatibleAssign', 'cannot use "oops" (untyped string constant) as int value in variable declaration'],
    },
    comment: '// note\n',
    mode: 'push',
  },
  {
    fixture: 'knowledge-py',
    broken: 'knowledge/broken.py',
    expected: [
      [1, 8, 'hint', undefined, '"json" is not accessed'],
      [
        3,
        14,
        'error',
        'reportAssignmentType',
        'Type "Literal[\'three\']" is not assignable to declared type "int"\n\u00a0\u00a0"Literal[\'three\']" is not assignable to "int"',
      ],
    ],
    clean: 'knowledge/clean.py',
    bad: {
      append: 'bad: int = "oops"\n',
      error: [
        3,
        'reportAssignmentType',
        'Type "Literal[\'oops\']" is not assignable to declared type "int"\n\u00a0\u00a0"Literal[\'oops\']" is not assignable to "int"',
      ],
    },
    comment: '# note\n',
    // pyright pulls (servers.json pullDiagnostics): its publishes come in phases, a pull once it checked
    mode: 'pull',
  },
  {
    fixture: 'knowledge-php',
    broken: 'src/Broken.php',
    expected: [
      [7, 1, 'hint', 'P1003', "Symbol 'Circle' is declared but not used."],
      [15, 6, 'error', 'P1006', "Expected type 'Knowledge\\Shapes\\Square'. Found ''three''."],
    ],
    clean: 'src/Clean.php',
    bad: { append: "double('oops');\n", error: [11, 'P1006', "Expected type 'int'. Found ''oops''."] },
    comment: '// note\n',
    mode: 'push',
  },
];

const sha = (t: string) => createHash('sha256').update(t).digest('hex');
const brief = (f: FileDiagnostics) => f.diagnostics.map((d: DiagnosticEntry) => [d.line, d.column, d.severity, d.code, d.message]);

for (const c of CASES) {
  describe.runIf(c.fixture !== 'knowledge-go' || goAvailable)(`get_diagnostics: ${c.fixture}`, async () => {
    const fx = await openScratch(c.fixture);

    it('an unused import and a type error, exactly, with the stamp of the content on disk', async () => {
      const r = await fx.run('get_diagnostics', { file: c.broken });
      expect(r.files).toHaveLength(1);
      expect(brief(r.files[0])).toEqual(c.expected);
      expect(r.files[0]).toMatchObject({ file: c.broken, mode: c.mode, content_hash: sha(fx.read(c.broken)) });
      expect(r.counts).toEqual({
        error: c.expected.filter((e) => e[2] === 'error').length,
        warning: 0,
        information: 0,
        hint: c.expected.filter((e) => e[2] === 'hint').length,
      });
      const errorsOnly = await fx.run('get_diagnostics', { file: c.broken, severity: 'error' });
      expect(brief(errorsOnly.files[0])).toEqual(c.expected.filter((e) => e[2] === 'error'));
      // unchanged on disk: the same document version answers again
      expect(errorsOnly.files[0].version).toBe(r.files[0].version);
    });

    it('freshness: introduce an error on disk, then fix it; each call reflects the current content', async () => {
      const original = fx.read(c.clean);
      const before = await fx.run('get_diagnostics', { file: c.clean });
      expect(before.total).toBe(0);

      const broken = original + c.bad.append;
      fx.write(c.clean, broken);
      const during = await fx.run('get_diagnostics', { file: c.clean });
      expect(during.files[0].content_hash).toBe(sha(broken));
      expect(during.files[0].version).toBeGreaterThan(before.files[0].version);
      const [line, code, message] = c.bad.error;
      expect(
        during.files[0].diagnostics.filter((d: DiagnosticEntry) => d.severity === 'error').map((d: DiagnosticEntry) => [d.line, d.code, d.message]),
      ).toEqual([[line, code, message]]);

      fx.write(c.clean, original);
      const after = await fx.run('get_diagnostics', { file: c.clean });
      expect(after.files[0].content_hash).toBe(sha(original));
      expect(after.total).toBe(0);
    });

    it('an edit that changes no diagnostics is answered for the new content too', async () => {
      const original = fx.read(c.clean);
      await fx.run('get_diagnostics', { file: c.clean });
      fx.write(c.clean, original + c.comment);
      const r = await fx.run('get_diagnostics', { file: c.clean });
      expect([r.total, r.files[0].content_hash]).toEqual([0, sha(original + c.comment)]);
      fx.write(c.clean, original);
    });

    it('changed: true lists the files edited since the last answer; the workspace is bounded by max_files', async () => {
      const original = fx.read(c.clean);
      await fx.run('get_diagnostics', { file: c.clean });
      fx.write(c.clean, original + c.bad.append);
      const changed = await fx.run('get_diagnostics', { changed: true });
      expect(changed.files.map((f: FileDiagnostics) => [f.file, f.diagnostics.filter((d: DiagnosticEntry) => d.severity === 'error').length])).toEqual([
        [c.clean, 1],
      ]);
      fx.write(c.clean, original);

      const bounded = await fx.run('get_diagnostics', { max_files: 2 });
      expect(bounded.files_checked).toBe(2);
      expect(bounded._meta.truncated).toBe(true);
      expect(bounded._meta.limits_hit[0]).toMatchObject({ limit: 'max_files', value: 2 });
    });
  });
}

describe('get_diagnostics: pull diagnostics (TypeScript 7 native server, which offers textDocument/diagnostic)', async () => {
  // an extra servers.json (--servers) is the user's: a folder's own .lspgate/servers.json may not enable a
  // server unless the user trusted the folder
  const fx = await openScratch(
    'knowledge-ts',
    { 'tsgo-servers.json': JSON.stringify({ servers: [{ id: 'tsgo', enabled: true, priority: 100 }] }) },
    { serversFiles: ['tsgo-servers.json'] },
  );

  it('answers in pull mode, exactly, and follows an edit on disk', async () => {
    const r = await fx.run('get_diagnostics', { file: 'src/broken.ts' });
    expect(r.files[0]).toMatchObject({ server: 'tsgo', mode: 'pull', content_hash: sha(fx.read('src/broken.ts')) });
    // tsgo's unused-import range is the binding, tsserver's the whole import declaration
    expect(brief(r.files[0])).toEqual([
      [1, 10, 'hint', '6133', "'Circle' is declared but its value is never read."],
      [3, 14, 'error', '2322', "Type 'string' is not assignable to type 'number'."],
    ]);
    const original = fx.read('src/clean.ts');
    fx.write('src/clean.ts', original + "export const bad: number = 'oops';\n");
    const during = await fx.run('get_diagnostics', { file: 'src/clean.ts' });
    expect([during.files[0].mode, during.total, during.files[0].diagnostics[0].line]).toEqual(['pull', 1, 4]);
    fx.write('src/clean.ts', original);
    const after = await fx.run('get_diagnostics', { file: 'src/clean.ts' });
    expect([after.total, after.files[0].content_hash]).toEqual([0, sha(original)]);
  });
});

describe('get_diagnostics: changed: true in a git work tree', async () => {
  const fx = await openScratch('knowledge-ts');
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@lspgate', '-c', 'user.name=t', ...args], { cwd: fx.root, stdio: 'pipe' });

  it('lists exactly the files modified or added since HEAD (deleted ones have nothing to diagnose)', async () => {
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'fixture');
    fx.write('src/clean.ts', fx.read('src/clean.ts') + "export const bad: number = 'oops';\n");
    fx.write('src/added.ts', 'export const fine = 1;\n');
    fs.rmSync(path.join(fx.root, 'src/broken.ts'));
    const r = await fx.run('get_diagnostics', { changed: true });
    expect(r.files.map((f: FileDiagnostics) => [f.file, f.diagnostics.length])).toEqual([
      ['src/added.ts', 0],
      ['src/clean.ts', 1],
    ]);
    expect(r._meta.warnings ?? []).not.toContain('not a git work tree: only files changed since the last get_diagnostics answer are listed');
  });
});
