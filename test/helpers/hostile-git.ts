/**
 * A hostile git workspace: a repository whose own config, `.gitattributes`, include file, hooks and
 * submodule name programs git would run while lspgate only reads it. Each program writes a marker
 * file named after its vector into `markers/` when it runs; a reader leaves that folder empty.
 * Also a clone source (a repository with the same attributes and a submodule on the ext::
 * transport) for index_repo. Used by the unit and front-end tests and by bench/redteam-git.ts.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export interface HostileGit {
  /** The workspace root (a git work tree with a committed and a changed TypeScript file). */
  root: string;
  /** A repository for index_repo to clone. */
  cloneSource: string;
  markersDir: string;
  /** The vectors whose program ran. */
  markers: () => string[];
  /** A committed file of the root and its commit, for a citation to check. */
  cited: { file: string; commit: string };
}

/** The vectors planted, each one's marker name. */
export const GIT_VECTORS = [
  'fsmonitor', // core.fsmonitor: run by status, diff, ls-files
  'clean-filter', // filter.<x>.clean named by .gitattributes: status/diff on a stat-dirty file
  'textconv', // diff.<x>.textconv named by .gitattributes: diff, show
  'diff-external', // diff.external
  'diff-command', // diff.<x>.command
  'pager', // core.pager, pager.<cmd>
  'include-filter', // a filter defined in a file pulled in by include.path
  'hook', // .git/hooks/*: post-index-change on an index refresh, post-checkout
  'submodule-filter', // a submodule's own config: a filter run by a nested `git status`
  'submodule-fsmonitor', // the submodule's core.fsmonitor
  'gpg', // gpg.program with log.showSignature
  'clone-submodule', // index_repo: a submodule URL on the ext:: transport
] as const;

const GIT_ID = [
  '-c',
  'user.name=lspgate-test',
  '-c',
  'user.email=test@lspgate.invalid',
  '-c',
  'commit.gpgsign=false',
  '-c',
  'core.hooksPath=/dev/null',
  '-c',
  'protocol.file.allow=always',
];

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', [...GIT_ID, ...args], { cwd, stdio: 'pipe', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } }).toString();
}

/** An executable script that writes the marker, then passes stdin (or the file named by $1) through. */
function evil(dir: string, markers: string, name: string, body = 'cat'): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, `#!/bin/sh\n: > '${path.join(markers, name)}'\n${body}\n`, { mode: 0o755 });
  return file;
}

export function buildHostileGit(base: string): HostileGit {
  fs.mkdirSync(base, { recursive: true });
  const markersDir = path.join(base, 'markers');
  const bin = path.join(base, 'evil-bin');
  fs.mkdirSync(markersDir);
  fs.mkdirSync(bin);
  const prog = (name: string, body?: string) => evil(bin, markersDir, name, body);

  // the submodule's source: a file whose filter its own config names
  const subSrc = path.join(base, 'sub-src');
  fs.mkdirSync(subSrc);
  git(subSrc, 'init', '-q', '-b', 'main');
  fs.writeFileSync(path.join(subSrc, 'x.txt'), 'one\n');
  fs.writeFileSync(path.join(subSrc, '.gitattributes'), '*.txt filter=subclean\n');
  git(subSrc, 'add', '-A');
  git(subSrc, 'commit', '-q', '-m', 'sub');

  const root = path.join(base, 'ws');
  fs.mkdirSync(path.join(root, 'src'), { recursive: true });
  fs.writeFileSync(path.join(root, 'package.json'), '{"name":"hostile-git","version":"1.0.0"}\n');
  fs.writeFileSync(path.join(root, 'src/a.ts'), 'export function alpha(): number {\n  return 1;\n}\n');
  fs.writeFileSync(path.join(root, 'src/b.ts'), 'export function beta(): number {\n  return 2;\n}\n');
  fs.writeFileSync(path.join(root, 'src/c.mjs'), 'export function gamma() {\n  return 3;\n}\n');
  fs.writeFileSync(path.join(root, 'README.md'), '# hostile\n');
  fs.writeFileSync(path.join(root, 'notes.txt'), 'notes\n');
  fs.writeFileSync(
    path.join(root, '.gitattributes'),
    ['*.ts filter=evilclean diff=eviltc', '*.mjs diff=evilcmd', '*.md filter=incl', '*.txt diff=evilcmd'].join('\n') + '\n',
  );
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'base');
  git(root, 'submodule', 'add', '-q', subSrc, 'sub');
  git(root, 'commit', '-q', '-m', 'submodule');
  const commit = git(root, 'rev-parse', 'HEAD').trim();

  const dotGit = path.join(root, '.git');
  const set = (file: string, key: string, value: string) => git(root, 'config', '--file', file, key, value);
  const cfg = path.join(dotGit, 'config');
  set(cfg, 'core.fsmonitor', prog('fsmonitor', 'exit 1'));
  set(cfg, 'filter.evilclean.clean', prog('clean-filter'));
  set(cfg, 'filter.evilclean.required', 'true');
  set(cfg, 'diff.eviltc.textconv', prog('textconv', 'cat "$1"'));
  set(cfg, 'diff.external', prog('diff-external', 'exit 0'));
  set(cfg, 'diff.evilcmd.command', prog('diff-command', 'exit 0'));
  set(cfg, 'core.pager', prog('pager'));
  set(cfg, 'pager.diff', prog('pager'));
  set(cfg, 'pager.status', prog('pager'));
  set(cfg, 'gpg.program', prog('gpg', 'exit 1'));
  set(cfg, 'log.showSignature', 'true');
  const include = path.join(dotGit, 'evil-include');
  set(include, 'filter.incl.clean', prog('include-filter'));
  set(cfg, 'include.path', 'evil-include');
  for (const hook of ['post-index-change', 'post-checkout', 'pre-auto-gc', 'reference-transaction']) {
    fs.writeFileSync(path.join(dotGit, 'hooks', hook), `#!/bin/sh\n: > '${path.join(markersDir, 'hook')}'\n`, { mode: 0o755 });
  }
  const subCfg = path.join(dotGit, 'modules/sub/config');
  set(subCfg, 'filter.subclean.clean', prog('submodule-filter'));
  set(subCfg, 'core.fsmonitor', prog('submodule-fsmonitor', 'exit 1'));

  // the working tree differs from HEAD: a changed TypeScript file (clean filter, textconv), a changed
  // .mjs (diff command), a changed .md (the included filter), a changed file of the
  // submodule, and an untracked file (ls-files)
  fs.writeFileSync(path.join(root, 'src/a.ts'), 'export function alpha(): number {\n  return 10;\n}\n\nexport function delta(): number {\n  return 4;\n}\n');
  fs.writeFileSync(path.join(root, 'src/c.mjs'), 'export function gamma() {\n  return 30;\n}\n');
  fs.writeFileSync(path.join(root, 'README.md'), '# hostile, changed\n');
  fs.writeFileSync(path.join(root, 'notes.txt'), 'notes, changed\n');
  fs.writeFileSync(path.join(root, 'sub/x.txt'), 'two\n');
  fs.writeFileSync(path.join(root, 'src/new.ts'), 'export const fresh = 1;\n');

  // the clone source: the same attributes, and a submodule whose URL runs a command on the ext:: transport
  // inside the root, so index_repo may open it; git's own exclude file keeps it out of the root's status
  const cloneSource = path.join(root, 'vendor-src/clone-src');
  fs.mkdirSync(cloneSource, { recursive: true });
  fs.appendFileSync(path.join(dotGit, 'info/exclude'), 'vendor-src/\n');
  git(cloneSource, 'init', '-q', '-b', 'main');
  fs.writeFileSync(path.join(cloneSource, 'lib.ts'), 'export function lib(): number {\n  return 1;\n}\n');
  fs.writeFileSync(path.join(cloneSource, '.gitattributes'), '*.ts filter=evilclean diff=eviltc\n');
  fs.writeFileSync(
    path.join(cloneSource, '.gitmodules'),
    `[submodule "x"]\n\tpath = x\n\turl = ext::sh -c touch% ${path.join(markersDir, 'clone-submodule')}\n`,
  );
  git(cloneSource, 'add', '-A');
  // a gitlink for the submodule, so a recursive clone would fetch it
  git(cloneSource, 'update-index', '--add', '--cacheinfo', `160000,${commit},x`);
  git(cloneSource, 'commit', '-q', '-m', 'lib');
  set(path.join(cloneSource, '.git/config'), 'core.fsmonitor', prog('fsmonitor', 'exit 1'));
  set(path.join(cloneSource, '.git/config'), 'uploadpack.packObjectsHook', prog('hook', 'exec "$@"'));
  fs.writeFileSync(path.join(cloneSource, '.git/hooks/post-checkout'), `#!/bin/sh\n: > '${path.join(markersDir, 'hook')}'\n`, { mode: 0o755 });

  return {
    root,
    cloneSource,
    markersDir,
    markers: () => fs.readdirSync(markersDir).sort(),
    cited: { file: 'src/b.ts', commit },
  };
}

/** The calls that run git, as operation and input (the integration test's and the red team's). */
export function gitCalls(h: HostileGit): [string, Record<string, unknown>][] {
  return [
    ['get_diagnostics', { changed: true }],
    ['changed_symbols', {}],
    ['detect_drift', {}],
    ['verify_citation', { citation: { file: h.cited.file, start_line: 1, end_line: 3, commit_hash: h.cited.commit } }],
    ['search_code', { query: 'beta' }],
    ['index_repo', { url: h.cloneSource }],
  ];
}
