// The apply journal and its recovery, on real files (no server): an apply interrupted before its
// `staged` record is rolled back (temp files removed, every file as before); after it, completed
// from the temp files when every file is still old or already new, else rolled back from the
// backups, leaving a file someone changed since as it is. Byte for byte, modes kept, no temp file
// left, the journal gone. A journal whose owner still runs is left alone.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { listJournals } from '../../src/link/journals.js';
import { ApplyJournal } from '../../src/service/editing/apply-journal.js';
import { recoverJournals } from '../../src/service/editing/recovery.js';
import type { FileEdit } from '../../src/service/editing/workspace-edit.js';

let tmp: string;
let root: string;
let cache: string;
const sha = (t: string) => createHash('sha256').update(t).digest('hex');

function files(n: number): FileEdit[] {
  const out: FileEdit[] = [];
  for (let i = 0; i < n; i++) {
    const file = `src/f${i}.ts`;
    const abs = path.join(root, file);
    const before = `import { oldName } from './shared';\nexport const v${i} = oldName(${i}); // é ${i}\n`;
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, before, { mode: 0o640 });
    const after = before.replaceAll('oldName', 'newName');
    out.push({ absPath: abs, file, before, content_hash: sha(before), after, edits: 2, diff: '' });
  }
  return out;
}

const contents = (edits: FileEdit[]) => edits.map((e) => fs.readFileSync(e.absPath, 'utf8'));
const temps = () => fs.readdirSync(path.join(root, 'src')).filter((n) => n.endsWith('.tmp'));

beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-journal-')));
  root = path.join(tmp, 'root');
  cache = path.join(tmp, 'cache');
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('apply journal recovery', () => {
  it('a crash before staged: rolled back, every file as before, no temp file', () => {
    const edits = files(5);
    const j = ApplyJournal.open(cache, { root, id: 'ws' }, 'rename_symbol', edits);
    fs.writeFileSync(j.begin.files[0]!.tmp, 'half a temp file');
    const [r] = recoverJournals(cache, root, { ownIsDead: true });
    expect(r!.action).toBe('rolled_back');
    expect(r!.message).toContain('had not written any file');
    expect(contents(edits)).toEqual(edits.map((e) => e.before));
    expect(temps()).toEqual([]);
    expect(listJournals(cache)).toEqual([]);
  });

  it('a crash after staged with some files moved: completed, every file new, modes kept', () => {
    const edits = files(6);
    const j = ApplyJournal.open(cache, { root, id: 'ws' }, 'rename_symbol', edits);
    j.stage();
    // the crash: two renames done, four not
    for (const step of j.begin.files.slice(0, 2)) fs.renameSync(step.tmp, step.abs);
    const [r] = recoverJournals(cache, root, { ownIsDead: true });
    expect(r!.action).toBe('completed');
    expect(r!.message).toContain('the last 4 file(s) were moved into place');
    expect(contents(edits)).toEqual(edits.map((e) => e.after));
    expect(edits.map((e) => fs.statSync(e.absPath).mode & 0o777)).toEqual(edits.map(() => 0o640));
    expect(temps()).toEqual([]);
    expect(listJournals(cache)).toEqual([]);
    // the backups hold the old bytes, private
    const backup = j.begin.files[3]!.backup;
    expect(fs.readFileSync(backup, 'utf8')).toBe(edits[3]!.before);
    expect(fs.statSync(backup).mode & 0o777).toBe(0o600);
  });

  it('a crash after staged, then someone edits a file not yet moved: rolled back from the backups, that file left as it is', () => {
    const edits = files(4);
    const j = ApplyJournal.open(cache, { root, id: 'ws' }, 'rename_symbol', edits);
    j.stage();
    fs.renameSync(j.begin.files[0]!.tmp, j.begin.files[0]!.abs);
    fs.writeFileSync(edits[2]!.absPath, 'edited by hand\n');
    const [r] = recoverJournals(cache, root, { ownIsDead: true });
    expect(r!.action).toBe('rolled_back');
    expect(r!.conflicts).toEqual(['src/f2.ts']);
    expect(contents(edits)).toEqual([edits[0]!.before, edits[1]!.before, 'edited by hand\n', edits[3]!.before]);
    expect(temps()).toEqual([]);
  });

  it('a complete apply leaves no journal and no temp file; a file changed before a rename rolls the others back', () => {
    const edits = files(3);
    const ok = ApplyJournal.open(cache, { root, id: 'ws' }, 'rename_symbol', edits);
    ok.stage();
    ok.commit();
    expect(contents(edits)).toEqual(edits.map((e) => e.after));
    expect([temps(), listJournals(cache)]).toEqual([[], []]);
    const again = edits.map((e) => ({ ...e, before: e.after, content_hash: sha(e.after), after: e.after.replaceAll('newName', 'third') }));
    const j = ApplyJournal.open(cache, { root, id: 'ws' }, 'rename_symbol', again);
    j.stage();
    fs.writeFileSync(again[2]!.absPath, 'changed meanwhile\n');
    expect(() => j.commit()).toThrow(/changed while the edit was being written: nothing was written \(2 file\(s\) already written were restored/);
    expect(contents(edits)).toEqual([edits[0]!.after, edits[1]!.after, 'changed meanwhile\n']);
    expect([temps(), listJournals(cache)]).toEqual([[], []]);
    // the rolled-back apply's backups are gone; the completed one's stay
    expect(fs.existsSync(j.begin.backup_dir)).toBe(false);
    expect(fs.readdirSync(path.join(ok.begin.backup_dir, 'src')).sort()).toEqual(['f0.ts', 'f1.ts', 'f2.ts']);
  });

  it('a staging that fails part-way (a file changed since the preview) leaves no backup, no temp file and no journal', () => {
    const edits = files(4);
    const j = ApplyJournal.open(cache, { root, id: 'ws' }, 'rename_symbol', edits);
    fs.writeFileSync(edits[2]!.absPath, 'changed since the preview\n');
    expect(() => j.stage()).toThrow(/changed while the edit was being written/);
    // the first two files were backed up and staged before the third was read
    expect(fs.readdirSync(path.join(j.begin.backup_dir, 'src')).sort()).toEqual(['f0.ts', 'f1.ts']);
    j.abandon();
    expect(fs.existsSync(j.begin.backup_dir)).toBe(false);
    expect([temps(), listJournals(cache)]).toEqual([[], []]);
    expect(contents(edits)).toEqual([edits[0]!.before, edits[1]!.before, 'changed since the preview\n', edits[3]!.before]);
  });

  it('a journal whose owner still runs is left to it', () => {
    const edits = files(2);
    const j = ApplyJournal.open(cache, { root, id: 'ws' }, 'rename_symbol', edits);
    // another live process as the owner: this test's parent
    const text = fs
      .readFileSync(j.path, 'utf8')
      .replace(`"pid":${process.pid},`, `"pid":${process.ppid},`)
      .replace(/"pid_start":"\d+",/, '');
    fs.writeFileSync(j.path, text);
    const [r] = recoverJournals(cache, root, { ownIsDead: true });
    expect(r!.action).toBe('in_progress');
    // and one of this process, unless the caller plays the crash in-process
    const own = ApplyJournal.open(cache, { root: `${root}-2`, id: 'ws2' }, 'rename_symbol', []);
    expect(recoverJournals(cache, `${root}-2`).map((x) => x.action)).toEqual(['in_progress']);
    own.abandon();
    expect(listJournals(cache)).toHaveLength(1);
  });

  it('journals, backups and their directories are private (0600 / 0700)', () => {
    const edits = files(2);
    const j = ApplyJournal.open(cache, { root, id: 'ws' }, 'rename_symbol', edits);
    j.stage();
    expect(fs.statSync(j.path).mode & 0o777).toBe(0o600);
    for (const d of [path.dirname(j.path), cache, path.join(cache, 'backups'), path.dirname(j.begin.files[0]!.backup)])
      expect(fs.statSync(d).mode & 0o777, d).toBe(0o700);
    j.commit();
  });
});
