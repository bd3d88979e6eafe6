/**
 * SIGKILL of the daemon in the middle of a multi-file rename apply, through the front-ends where it
 * was seen: the one-shot CLI (a thin client of the daemon) and `lspgate mcp` over stdio. The call
 * answers DAEMON_FAILED with what the apply journal says was written, and is never run again in the
 * client's own process (it used to be, on the half-renamed tree, answering SYMBOL_NOT_FOUND); the
 * next start of the workspace (or `lspgate recover`) leaves every file wholly renamed or wholly as
 * before, byte for byte, with no temp file anywhere, and the next answer's `_meta.warnings` says which.
 * The kill is sent by a watcher on the journal directory (killAtJournal), not after a delay.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { killAtJournal, NEW_NAME, OLD_NAME, type RenameRepo, treeVerdict, writeRenameRepo } from '../helpers/apply-crash.js';
import { connectStdio, type StdioConnection, textOf } from '../helpers/mcp-client.js';
import { removeWhenQuiet } from '../helpers/quiet-dir.js';
import { assertBuilt, CLI, runCli } from '../helpers/spawn.js';

const FILES = 150;
let tmp: string;

beforeAll(() => {
  assertBuilt();
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-crash-')));
});
afterAll(async () => {
  if (tmp) await removeWhenQuiet(tmp);
});

/** Each world has its own daemon: its cache dir and socket directory (tests otherwise run lspgate in-process). */
function world(name: string): { repo: RenameRepo; cache: string; env: Record<string, string> } {
  const root = path.join(tmp, name, 'repo');
  const run = path.join(tmp, name, 'run');
  fs.mkdirSync(root, { recursive: true });
  fs.mkdirSync(run, { mode: 0o700 });
  return { repo: writeRenameRepo(root, FILES), cache: path.join(tmp, name, 'cache'), env: { LSPGATE_DAEMON: 'auto', XDG_RUNTIME_DIR: run } };
}

const cli = (args: string[], w: { cache: string; env: Record<string, string> }) => runCli(args, { cacheDir: w.cache, cwd: tmp, env: w.env });

describe('a daemon killed during a rename apply', () => {
  it('one-shot CLI: DAEMON_FAILED with the journal, never re-run; the next start completes or rolls back', { timeout: 300_000 }, async () => {
    const w = world('cli');
    const { repo, cache } = w;
    try {
      // a warm daemon and project, so that the apply starts soon after the call
      const warm = await cli(['find_references', '--root', repo.root, '--symbol', OLD_NAME, '--json'], w);
      expect(warm.code, warm.stderr).toBe(0);
      const killer = killAtJournal(cache, { at: 'staged' });
      const r = await cli(['rename_symbol', '--root', repo.root, '--symbol', OLD_NAME, `--new-name=${NEW_NAME}`, '--apply', '--json'], w);
      const { records } = await killer.killed;
      killer.close();
      expect(records).toContain('staged');
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('DAEMON_FAILED: the lspgate daemon closed the connection before answering; the call was not run again.');
      expect(r.stderr).toContain(`rename_symbol in ${repo.root} had moved`);
      expect(r.stderr).not.toContain('SYMBOL_NOT_FOUND');
      // the next call starts a daemon, which recovers the workspace as it opens it and says so
      const next = await cli(['get_file_tree', '--root', repo.root, '--json'], w);
      expect(next.code, next.stderr).toBe(0);
      const warnings = (JSON.parse(next.stdout) as { _meta: { warnings?: string[] } })._meta.warnings ?? [];
      expect(warnings.join('\n')).toMatch(/rename_symbol of 151 file\(s\) in .*: (completed|rolled back)/);
      const verdict = treeVerdict(repo);
      expect(verdict.mixed).toEqual([]);
      expect(verdict.temps).toEqual([]);
      expect(verdict.state).toBe(warnings.join('\n').includes(': completed') ? 'after' : 'before');
      expect(fs.readdirSync(path.join(cache, 'journals'))).toEqual([]);
    } finally {
      await cli(['daemon', 'stop'], w);
    }
  });

  it('MCP stdio: the call in flight answers DAEMON_FAILED with the journal; the resumed session recovers', { timeout: 300_000 }, async () => {
    const w = world('mcp');
    const { repo, cache } = w;
    let stdio: StdioConnection | undefined;
    try {
      stdio = await connectStdio(CLI, ['mcp', '--tools', 'all', '--root', repo.root], { cacheDir: cache, cwd: tmp, env: w.env });
      const warm = await stdio.client.callTool({ name: 'find_references', arguments: { symbol: OLD_NAME } }, { timeout: 200_000 });
      expect(warm.isError, textOf(warm)).not.toBe(true);
      const killer = killAtJournal(cache, { at: 'created' });
      const err = await stdio.client
        .callTool({ name: 'rename_symbol', arguments: { symbol: OLD_NAME, new_name: NEW_NAME, apply: true } }, { timeout: 200_000 })
        .then(
          (r) => ({ message: textOf(r), data: undefined as unknown }),
          (e: unknown) => ({ message: String((e as Error).message), data: (e as { data?: unknown }).data }),
        );
      await killer.killed;
      killer.close();
      expect(err.message).toContain('the call was not run again');
      expect(err.message).toContain(`rename_symbol in ${repo.root}`);
      expect(JSON.stringify(err.data)).toContain('"journals"');
      const next = await stdio.client.callTool({ name: 'get_file_tree', arguments: {} }, { timeout: 200_000 });
      expect(next.isError, textOf(next)).not.toBe(true);
      const warnings = (next.structuredContent as { _meta: { warnings?: string[] } })._meta.warnings ?? [];
      expect(warnings.join('\n')).toMatch(/rename_symbol of 151 file\(s\) in .*: (completed|rolled back)/);
      const verdict = treeVerdict(repo);
      expect([verdict.mixed, verdict.temps]).toEqual([[], []]);
      expect(verdict.state).toBe(warnings.join('\n').includes(': completed') ? 'after' : 'before');
    } finally {
      await stdio?.client.close();
      await cli(['daemon', 'stop'], w);
    }
  });

  it('lspgate recover finishes a journal left by a killed in-process apply (--daemon off)', { timeout: 300_000 }, async () => {
    const w = world('recover');
    const { repo, cache } = w;
    const killer = killAtJournal(cache, { at: 'renamed', count: 20 });
    const r = await cli(['rename_symbol', '--root', repo.root, '--daemon', 'off', '--symbol', OLD_NAME, `--new-name=${NEW_NAME}`, '--apply'], w);
    await killer.killed;
    killer.close();
    expect(r.code).toBe(null);
    expect(treeVerdict(repo).state).toBe('mixed');
    const rec = await cli(['recover', '--root', repo.root, '--json'], w);
    expect(rec.code, rec.stderr).toBe(0);
    const out = JSON.parse(rec.stdout) as { recovered: { action: string }[] };
    expect(out.recovered.map((o) => o.action)).toEqual(['completed']);
    expect(treeVerdict(repo)).toEqual({ state: 'after', mixed: [], temps: [] });
    const again = await cli(['recover', '--root', repo.root], w);
    expect(again.stdout).toContain('nothing to recover');
  });
});
