/**
 * The cache holds source (backups of edited files, catalogs with docstrings, clones, journals), so
 * it is private: after a day's work through the spawned front-ends — the one-shot CLI through the
 * daemon (catalog snapshot, savings, daemon log), a rename applied (journal, backups), tags written,
 * a local repository cloned with index_repo, `lspgate mcp --http` (its token) — every directory under
 * the configured cache dir is 0700 and every file 0600, whatever the umask. An old cache directory
 * left 0755 by an earlier version is narrowed to 0700 when lspgate starts.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { removeWhenQuiet } from '../helpers/quiet-dir.js';
import { assertBuilt, CLI, runCli, spawnNode, waitFor } from '../helpers/spawn.js';

let tmp: string;
let root: string;
let cache: string;
let env: Record<string, string>;

const cli = (args: string[]) => runCli(args, { cacheDir: cache, cwd: tmp, env });

/**
 * Paths under `dir` with a group or other bit, and — outside git's clones, whose objects git makes
 * read-only (0400) and whose sample hooks executable (0700) — files lspgate wrote that are not 0600.
 */
function notPrivate(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const abs = path.join(d, e.name);
      const st = fs.lstatSync(abs);
      const mode = st.mode & 0o777;
      if (e.isSymbolicLink() || e.isSocket()) continue; // a link's mode means nothing; the socket's directory is checked
      const rel = path.relative(dir, abs);
      if (e.isDirectory()) {
        if (mode !== 0o700) out.push(`${rel}/ ${mode.toString(8)}`);
        walk(abs);
      } else if (mode & 0o077 || (!rel.startsWith('repos/') && mode !== 0o600)) out.push(`${rel} ${mode.toString(8)}`);
    }
  };
  walk(dir);
  return out;
}

beforeAll(() => {
  assertBuilt();
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-private-')));
  root = path.join(tmp, 'ws');
  fs.mkdirSync(path.join(root, 'src'), { recursive: true });
  fs.writeFileSync(path.join(root, 'src/a.ts'), '/** Doc of greet. */\nexport function greet(n: string): string { return n; }\n');
  fs.writeFileSync(path.join(root, 'src/b.ts'), "import { greet } from './a';\nexport const g = greet('x');\n");
  fs.writeFileSync(
    path.join(root, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { strict: true, target: 'es2022', module: 'commonjs' }, include: ['src/**/*'] }),
  );
  // a local repository inside the root, for index_repo
  const repo = path.join(root, 'vendor-src/lib');
  fs.mkdirSync(repo, { recursive: true });
  fs.writeFileSync(path.join(repo, 'lib.ts'), 'export const lib = 1;\n');
  const git = (...a: string[]) =>
    execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', '-c', 'commit.gpgsign=false', ...a], { cwd: repo, stdio: 'ignore' });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'lib');
  cache = path.join(tmp, 'cache');
  // no XDG_RUNTIME_DIR: the daemon's socket and log live in <cache>/daemon, checked with the rest
  env = { LSPGATE_DAEMON: 'auto', XDG_RUNTIME_DIR: '' };
});

afterAll(async () => {
  if (cache) await cli(['daemon', 'stop']);
  if (tmp) await removeWhenQuiet(tmp);
});

describe('the cache directory is private', () => {
  it('every directory 0700 and every file 0600 after catalogs, applies, tags, clones, tokens and logs', { timeout: 300_000 }, async () => {
    for (const args of [
      ['get_file_tree', '--root', root, '--json'],
      ['search_code', '--root', root, '--query', 'greet', '--json'],
      // the doc comment's `greet` is no rename site of the server: applying leaves it, said and accepted
      ['rename_symbol', '--root', root, '--symbol', 'greet', '--new-name', 'hello', '--apply', '--accept_not_renamed', '--json'],
      ['tag_elements', '--root', root, '--path', 'src', '--no-dry_run', '--json'],
      ['index_repo', '--root', root, '--url', path.join(root, 'vendor-src/lib'), '--json'],
    ]) {
      const r = await cli(args);
      expect(r.code, `${args[0]}: ${r.stderr}`).toBe(0);
    }
    const http = spawnNode(CLI, ['mcp', '--tools', 'all', '--http', '--port', '0', '--root', root], { cacheDir: cache, cwd: tmp, env });
    try {
      await waitFor(() => /bearer token written to (\S+)/.test(http.stderr()), 'the token file line on stderr', 60_000);
    } finally {
      http.child.kill('SIGTERM');
      await http.exited;
    }
    // the daemon writes its savings total when it stops
    await cli(['daemon', 'stop']);
    const kinds = ['workspaces', 'backups', 'repos', 'http', 'daemon'];
    expect(kinds.filter((k) => !fs.existsSync(path.join(cache, k)))).toEqual([]);
    expect(fs.statSync(cache).mode & 0o777).toBe(0o700);
    expect(notPrivate(cache)).toEqual([]);
  });

  it('an old cache directory with group and other bits is narrowed to 0700 at start', { timeout: 120_000 }, async () => {
    await cli(['daemon', 'stop']);
    fs.chmodSync(cache, 0o755);
    const r = await cli(['get_file_tree', '--root', root, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(fs.statSync(cache).mode & 0o777).toBe(0o700);
  });
});
