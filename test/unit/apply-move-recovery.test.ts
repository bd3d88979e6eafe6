// The apply journal with a file created and a file removed (move_file: an importer edited, the old
// path removed, the new path created), on real files (no server): a whole apply moves the file; a
// new path that appeared before the commit is never replaced (nothing written); recovery after a
// crash completes a move whose steps are still old or new, and rolls one back otherwise — the
// created file removed, the removed file restored from its backup with its mode.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { ABSENT, listJournals } from '../../src/link/journals.js';
import { ApplyJournal } from '../../src/service/editing/apply-journal.js';
import { recoverJournals } from '../../src/service/editing/recovery.js';
import type { FileEdit } from '../../src/service/editing/workspace-edit.js';

let tmp: string;
let root: string;
let cache: string;
const sha = (t: string) => createHash('sha256').update(t).digest('hex');
const MOVED = 'export const x = 1;\n';
const IMPORTER = "import { x } from './old/a.js';\n";
const EDITED = "import { x } from './new/deep/a.js';\n";

/** An importer edit, the old path removed (mode 0640), the new path created in a folder not there yet. */
function move(): FileEdit[] {
  const imp = path.join(root, 'src/main.ts');
  const old = path.join(root, 'src/old/a.ts');
  fs.mkdirSync(path.dirname(old), { recursive: true });
  fs.writeFileSync(imp, IMPORTER);
  fs.writeFileSync(old, MOVED, { mode: 0o640 });
  fs.chmodSync(old, 0o640);
  return [
    { absPath: imp, file: 'src/main.ts', before: IMPORTER, content_hash: sha(IMPORTER), after: EDITED, edits: 1, diff: '' },
    { absPath: old, file: 'src/old/a.ts', before: MOVED, content_hash: sha(MOVED), after: '', edits: 0, diff: '', deleted: true },
    {
      absPath: path.join(root, 'src/new/deep/a.ts'),
      file: 'src/new/deep/a.ts',
      before: '',
      content_hash: ABSENT,
      after: MOVED,
      edits: 0,
      diff: '',
      created: { mode: 0o640 },
    },
  ];
}

const exists = (rel: string) => fs.existsSync(path.join(root, rel));
const read = (rel: string) => fs.readFileSync(path.join(root, rel), 'utf8');
const temps = () =>
  fs
    .readdirSync(root, { recursive: true })
    .map(String)
    .filter((n) => n.endsWith('.tmp'));

beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-move-journal-')));
  root = path.join(tmp, 'root');
  cache = path.join(tmp, 'cache');
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('apply journal: created and removed files', () => {
  it('a whole apply moves the file (its folder made, its mode kept), edits the importer, leaves no temp file', () => {
    const j = ApplyJournal.open(cache, { root, id: 'ws' }, 'move_file', move());
    expect(j.begin.files.map((f) => [f.before === ABSENT, f.after === ABSENT])).toEqual([
      [false, false],
      [false, true],
      [true, false],
    ]);
    j.stage();
    j.commit();
    expect([exists('src/old/a.ts'), read('src/new/deep/a.ts'), read('src/main.ts')]).toEqual([false, MOVED, EDITED]);
    expect(fs.statSync(path.join(root, 'src/new/deep/a.ts')).mode & 0o777).toBe(0o640);
    expect([temps(), listJournals(cache)]).toEqual([[], []]);
    // the removed file's bytes are in the backup
    expect(fs.readFileSync(j.begin.files[1]!.backup, 'utf8')).toBe(MOVED);
  });

  it('a file that appears at the new path before the commit is not replaced: nothing written', () => {
    const edits = move();
    const j = ApplyJournal.open(cache, { root, id: 'ws' }, 'move_file', edits);
    j.stage();
    fs.writeFileSync(path.join(root, 'src/new/deep/a.ts'), 'someone else\n');
    expect(() => j.commit()).toThrow(/changed while the edit was being written: nothing was written \(2 file\(s\) already written were restored/);
    expect([read('src/main.ts'), read('src/old/a.ts'), read('src/new/deep/a.ts')]).toEqual([IMPORTER, MOVED, 'someone else\n']);
    expect(fs.statSync(path.join(root, 'src/old/a.ts')).mode & 0o777).toBe(0o640);
    expect([temps(), listJournals(cache)]).toEqual([[], []]);
  });

  it('a crash after staged with the old path removed: recovery completes the move', () => {
    const j = ApplyJournal.open(cache, { root, id: 'ws' }, 'move_file', move());
    j.stage();
    // the crash: the importer written and the old path removed, the new one not yet linked
    fs.renameSync(j.begin.files[0]!.tmp, j.begin.files[0]!.abs);
    fs.rmSync(j.begin.files[1]!.abs);
    const [r] = recoverJournals(cache, root, { ownIsDead: true });
    expect(r!.action).toBe('completed');
    expect([exists('src/old/a.ts'), read('src/new/deep/a.ts'), read('src/main.ts')]).toEqual([false, MOVED, EDITED]);
    expect([temps(), listJournals(cache)]).toEqual([[], []]);
  });

  it('a crash after staged, then the importer edited by hand: rolled back — the new path removed, the old one restored with its mode', () => {
    const j = ApplyJournal.open(cache, { root, id: 'ws' }, 'move_file', move());
    j.stage();
    // the crash: the old path removed and the new one linked; the importer not yet written
    fs.rmSync(j.begin.files[1]!.abs);
    fs.linkSync(j.begin.files[2]!.tmp, j.begin.files[2]!.abs);
    fs.writeFileSync(path.join(root, 'src/main.ts'), 'edited by hand\n');
    const [r] = recoverJournals(cache, root, { ownIsDead: true });
    expect([r!.action, r!.conflicts]).toEqual(['rolled_back', ['src/main.ts']]);
    expect([exists('src/new/deep/a.ts'), read('src/old/a.ts'), read('src/main.ts')]).toEqual([false, MOVED, 'edited by hand\n']);
    expect(fs.statSync(path.join(root, 'src/old/a.ts')).mode & 0o777).toBe(0o640);
    expect([temps(), listJournals(cache)]).toEqual([[], []]);
  });
});
