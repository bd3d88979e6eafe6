/**
 * The write path on hostile workspaces (test/helpers/hostile-writes.ts) through the front-ends as a
 * user starts them: the one-shot CLI and `lspgate mcp` over stdio (a real MCP SDK client), both thin
 * clients of one daemon (`--daemon auto`, the default; a private socket directory). Each front-end
 * gets its own copy of the workspace. Every case answers
 * its code, no output holds the outside canary or the secret, nothing outside the root (nor .env, nor
 * the file with the key) changed, no temp file was left anywhere, and a symlink inside the root is
 * edited through its target and stays a symlink.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { cliArgs, OUTSIDE_CANARY, SECRET_CANARY } from '../helpers/hostile-corpus.js';
import { buildWriteWorkspace, changedPaths, clones, treeState, type WriteCase, writeCases, type WriteWorkspace } from '../helpers/hostile-writes.js';
import { connectStdio, type StdioConnection, textOf } from '../helpers/mcp-client.js';
import { removeWhenQuiet } from '../helpers/quiet-dir.js';
import { assertBuilt, CLI, runCli } from '../helpers/spawn.js';

let tmp: string;
let cache: string;
/** The default daemon mode (tests otherwise run lspgate in-process), with this file's own socket directory. */
let env: Record<string, string>;
const worlds: Record<'cli' | 'mcp', WriteWorkspace> = {} as Record<'cli' | 'mcp', WriteWorkspace>;
let stdio: StdioConnection;
const cases = writeCases();

interface Got {
  code: string;
  text: string;
}

const CODE =
  /\b(PATH_OUTSIDE_WORKSPACE|SECRET_FILE|INVALID_INPUT|FILE_NOT_FOUND|NOT_SUPPORTED|CONTENT_MODIFIED|SYMBOL_NOT_FOUND|WORKSPACE_NOT_FOUND|INTERNAL|DAEMON_FAILED)\b/;

async function viaCli(w: WriteWorkspace, c: WriteCase): Promise<Got> {
  const { workspace, ...input } = c.input(w);
  const root = typeof workspace === 'string' ? workspace : w.root;
  const r = await runCli([c.op, '--root', root, '--json', ...cliArgs(input)], { cacheDir: cache, cwd: tmp, env });
  return { code: r.code === 0 ? 'none' : (CODE.exec(r.stderr)?.[1] ?? `exit ${r.code}: ${r.stderr.slice(0, 200)}`), text: r.stdout + r.stderr };
}

async function viaMcp(w: WriteWorkspace, c: WriteCase): Promise<Got> {
  const r = await stdio.client.callTool({ name: c.op, arguments: c.input(w) }, { timeout: 170_000 });
  const text = textOf(r) + JSON.stringify(r.structuredContent ?? {});
  return { code: r.isError ? (CODE.exec(text)?.[1] ?? `uncoded: ${text.slice(0, 200)}`) : 'none', text };
}

beforeAll(async () => {
  assertBuilt();
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-writes-')));
  cache = path.join(tmp, 'cache');
  fs.mkdirSync(path.join(tmp, 'run'), { mode: 0o700 });
  env = { LSPGATE_DAEMON: 'auto', XDG_RUNTIME_DIR: path.join(tmp, 'run') };
  for (const fe of ['cli', 'mcp'] as const) {
    fs.mkdirSync(path.join(tmp, fe));
    worlds[fe] = buildWriteWorkspace(path.join(tmp, fe));
  }
  stdio = await connectStdio(CLI, ['mcp', '--tools', 'all', '--root', worlds.mcp.root], { cacheDir: cache, cwd: tmp, env });
  // the clone of the repository with the absolute symlink, opened once per front-end
  const cli = await runCli(['index_repo', '--root', worlds.cli.root, '--json', `--url=${worlds.cli.repo}`], { cacheDir: cache, cwd: tmp, env });
  expect(cli.code, cli.stderr).toBe(0);
  clones.set(worlds.cli.repo, (JSON.parse(cli.stdout) as { root: string }).root);
  const mcp = await stdio.client.callTool({ name: 'index_repo', arguments: { url: worlds.mcp.repo } }, { timeout: 170_000 });
  expect(mcp.isError, textOf(mcp)).not.toBe(true);
  clones.set(worlds.mcp.repo, (mcp.structuredContent as { root: string }).root);
}, 240_000);

afterAll(async () => {
  await stdio?.client.close();
  if (env) await runCli(['daemon', 'stop'], { cacheDir: cache, cwd: tmp, env });
  if (tmp) await removeWhenQuiet(tmp);
});

function check(fe: 'cli' | 'mcp', c: WriteCase, got: Got, before: Map<string, string>): void {
  const w = worlds[fe];
  expect(got.code, got.text.slice(0, 500)).toBe(c.code);
  expect(got.text).not.toContain(OUTSIDE_CANARY);
  expect(got.text).not.toContain(SECRET_CANARY);
  expect(got.text).not.toContain('PRIVATE KEY');
  const changed = changedPaths(before, treeState(w.tmp)).map((p) => path.relative(w.tmp, p));
  // the clone lives in the cache; it is checked through its outside target, which is under w.tmp
  expect(changed).toEqual([...c.mayChange].sort());
  expect(changed.filter((p) => p.endsWith('.tmp'))).toEqual([]);
}

describe.each(['cli', 'mcp'] as const)('the write path through %s', (fe) => {
  it.each(cases)('$what → $code', { timeout: 180_000 }, async (c) => {
    const w = worlds[fe];
    const before = treeState(w.tmp);
    const got = fe === 'cli' ? await viaCli(w, c) : await viaMcp(w, c);
    check(fe, c, got, before);
    if (c.code === 'none') {
      // the link inside the root is still a link, and its target holds the new name
      expect(fs.lstatSync(path.join(w.root, 'src/alias.ts')).isSymbolicLink()).toBe(true);
      expect(fs.readFileSync(path.join(w.root, 'lib/aliased.ts'), 'utf8')).toContain('greetAliasedRenamed');
    }
  });

  it('the clone with the absolute symlink: its outside target unchanged, no temp file beside it', () => {
    const w = worlds[fe];
    expect(fs.readdirSync(w.outside).sort()).toEqual(['helper.ts', 'repo-target.ts']);
    expect(fs.readFileSync(path.join(w.outside, 'repo-target.ts'), 'utf8')).toContain('greetRepo(');
  });
});
