// The exclude globs intelephense gets for a root's directory symlinks (servers.json
// symlinkExcludeSetting): root-relative, the link and what is below it, added to the entry's own
// list; links to files, dangling links and ELOOP self-links are not directories to exclude.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { ServerEntrySchema } from '../../src/config/schema.js';
import { withSymlinkExcludes } from '../../src/lsp/symlink-excludes.js';
import { canonicalPath, directorySymlinks } from '../../src/util/symlinks.js';

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-links-')));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
fs.mkdirSync(path.join(root, 'src/deep'), { recursive: true });
fs.writeFileSync(path.join(root, 'src/a.php'), '<?php\n');
fs.mkdirSync(path.join(root, 'loop'));
fs.symlinkSync('..', path.join(root, 'loop/up'));
fs.symlinkSync('../..', path.join(root, 'src/deep/again'));
fs.symlinkSync('a.php', path.join(root, 'src/file-link.php'));
fs.symlinkSync('missing', path.join(root, 'src/dangling'));
fs.symlinkSync('self', path.join(root, 'src/self'));
fs.mkdirSync(path.join(root, 'node_modules/pkg'), { recursive: true });
fs.symlinkSync('..', path.join(root, 'node_modules/pkg/up'));

const entry = ServerEntrySchema.parse({
  id: 'intelephense',
  languages: ['php'],
  extensions: ['.php'],
  command: 'intelephense',
  install: 'x',
  symlinkExcludeSetting: 'intelephense.files.exclude',
});

describe('directory symlinks of a root', () => {
  it('finds the directory links only, without following any', () => {
    expect(directorySymlinks(root)).toEqual([path.join(root, 'loop/up'), path.join(root, 'src/deep/again')]);
  });

  it('appends root-relative globs to the configured list, leaving the entry settings untouched', () => {
    const settings = { intelephense: { files: { exclude: ['**/.git/**'] }, telemetry: { enabled: false } } };
    const out = withSymlinkExcludes(entry, settings, root) as typeof settings;
    expect(out.intelephense.files.exclude).toEqual(['**/.git/**', 'loop/up', 'loop/up/**', 'src/deep/again', 'src/deep/again/**']);
    expect(settings.intelephense.files.exclude).toEqual(['**/.git/**']);
  });

  it('puts a path reached through a loop back on its real path, and leaves outside paths alone', () => {
    expect(canonicalPath(root, path.join(root, 'loop/up/loop/up/src/a.php'))).toBe(path.join(root, 'src/a.php'));
    expect(canonicalPath(root, '/usr/lib/x.php')).toBe('/usr/lib/x.php');
  });

  it('puts a path reached through a link out of the root on its real path outside (callers then never quote it)', () => {
    const outside = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-links-out-')));
    try {
      fs.writeFileSync(path.join(outside, 'b.php'), '<?php\n');
      fs.symlinkSync(path.join(outside, 'b.php'), path.join(root, 'src/out-link.php'));
      expect(canonicalPath(root, path.join(root, 'src/out-link.php'))).toBe(path.join(outside, 'b.php'));
      // missing: the path as given
      expect(canonicalPath(root, path.join(root, 'src/missing.php'))).toBe(path.join(root, 'src/missing.php'));
    } finally {
      fs.rmSync(path.join(root, 'src/out-link.php'), { force: true });
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });
});
