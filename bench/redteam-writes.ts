/**
 * What `npm run redteam` checks of the write path (rename apply, tag_elements): the write cases of
 * test/helpers/hostile-writes.ts (a directory symlink out of the root, a source file that is a symlink
 * to .env, a private key in the diff context, an injected new name, a clone committing an absolute
 * symlink, a link inside the root edited through its target) through every front-end, each on its own
 * copy of the workspace; a daemon SIGKILLed during a rename apply, then recovered (next start and
 * `lspgate recover`); and the cache read by a second local user. Each check is a line of the
 * redteam's table.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { killAtJournal, NEW_NAME, OLD_NAME, treeVerdict, writeRenameRepo } from '../test/helpers/apply-crash.js';
import { OUTSIDE_CANARY, SECRET_CANARY } from '../test/helpers/hostile-corpus.js';
import { buildWriteWorkspace, changedPaths, clones, treeState, writeCases, type WriteWorkspace } from '../test/helpers/hostile-writes.js';
import { runCli } from '../test/helpers/spawn.js';
import { type Frontend, mcpHttp, mcpStdio, oneShotCli, type Outcome, SAFE, sidecar } from './redteam-frontends.js';

export interface Line {
  what: string;
  frontend: string;
  expected: string;
  outcome: string;
  pass: boolean;
  ms: number;
}

const leaks = (t: string) => t.includes(OUTSIDE_CANARY) || t.includes(SECRET_CANARY) || t.includes('PRIVATE KEY');

type Factory = (root: string) => Promise<Frontend>;

/** A CLI front-end that runs a row naming another workspace (the clone) with that workspace as --root. */
function cliFactory(cache: string, cwd: string): Factory {
  return async (root) => {
    const base = oneShotCli(root, cache, cwd);
    return {
      ...base,
      call: (op, input) => {
        const { workspace, ...rest } = input;
        return typeof workspace === 'string' ? oneShotCli(workspace, cache, cwd).call(op, rest) : base.call(op, rest);
      },
    };
  };
}

async function openClone(fe: Frontend, w: WriteWorkspace): Promise<void> {
  const r = await fe.call('index_repo', { url: w.repo });
  const root = /"root":\s*"([^"]+)"/.exec(r.text)?.[1];
  if (r.outcome !== SAFE || !root) throw new Error(`index_repo through ${fe.name}: ${r.outcome} ${r.text.slice(0, 200)}`);
  clones.set(w.repo, root);
}

async function casesThrough(name: string, factory: Factory, tmp: string, out: Line[]): Promise<void> {
  const base = path.join(tmp, `writes-${name.replace(/\W+/g, '-')}`);
  fs.mkdirSync(base);
  const w = buildWriteWorkspace(base);
  const fe = await factory(w.root);
  try {
    await openClone(fe, w);
    for (const c of writeCases()) {
      const before = treeState(w.tmp);
      const t0 = performance.now();
      const got: Outcome = await fe.call(c.op, c.input(w));
      const changed = changedPaths(before, treeState(w.tmp)).map((p) => path.relative(w.tmp, p));
      const expected = c.code === 'none' ? SAFE : c.code;
      const linkKept = c.code !== 'none' || fs.lstatSync(path.join(w.root, 'src/alias.ts')).isSymbolicLink();
      const problems = [
        got.outcome !== expected ? got.outcome : '',
        leaks(got.text) ? 'LEAKED' : '',
        JSON.stringify(changed) !== JSON.stringify([...c.mayChange].sort()) ? `changed ${changed.join(' ')}` : '',
        linkKept ? '' : 'the link was replaced by a copy',
      ].filter(Boolean);
      out.push({
        what: `write: ${c.what}`,
        frontend: name,
        expected,
        outcome: problems.length ? problems.join('; ') : got.outcome,
        pass: problems.length === 0,
        ms: Math.round(performance.now() - t0),
      });
    }
  } finally {
    await fe.close().catch(() => undefined);
  }
}

/** The write cases through MCP stdio, MCP HTTP, the sidecar and the one-shot CLI (one workspace copy each). */
export async function writeRows(tmp: string, cache: string): Promise<Line[]> {
  const out: Line[] = [];
  const factories: [string, Factory][] = [
    ['MCP stdio', (root) => mcpStdio(root, cache, tmp)],
    ['MCP HTTP', (root) => mcpHttp(root, cache, tmp)],
    ['sidecar', async (root) => sidecar(root, cache, tmp)],
    ['CLI', cliFactory(cache, tmp)],
  ];
  for (const [name, f] of factories) await casesThrough(name, f, tmp, out);
  return out;
}

/**
 * A daemon (of its own cache dir) SIGKILLed during a 151-file rename apply through the CLI, twice:
 * once when the apply is staged (recovered by the next start), once after 20 renames (recovered by
 * `lspgate recover`). Pass: the call answered DAEMON_FAILED with the journal, and the tree is wholly
 * renamed or wholly as before with no temp file.
 */
export async function killRows(tmp: string): Promise<Line[]> {
  const out: Line[] = [];
  const cases = [
    { what: 'daemon killed when the apply is staged; recovered at the next start', point: { at: 'staged' as const }, recover: 'next' },
    { what: 'daemon killed after 20 renames; recovered by lspgate recover', point: { at: 'renamed' as const, count: 20 }, recover: 'command' },
  ];
  for (const [i, c] of cases.entries()) {
    const t0 = performance.now();
    const root = path.join(tmp, `kill-${i}`, 'repo');
    fs.mkdirSync(root, { recursive: true });
    const repo = writeRenameRepo(root, 150);
    const cache = path.join(tmp, `kill-${i}`, 'cache');
    const cli = (args: string[]) => runCli(args, { cacheDir: cache, cwd: tmp });
    const killer = killAtJournal(cache, c.point);
    const r = await cli(['rename_symbol', '--root', root, '--symbol', OLD_NAME, `--new-name=${NEW_NAME}`, '--apply']);
    killer.close();
    const said = /DAEMON_FAILED: .*the call was not run again/.test(r.stderr) && r.stderr.includes(`rename_symbol in ${root}`);
    const rec = c.recover === 'next' ? await cli(['get_file_tree', '--root', root, '--json']) : await cli(['recover', '--root', root]);
    const how = /completed|rolled back|rolled_back/.exec(rec.stdout)?.[0] ?? `nothing said (${rec.stderr.slice(0, 80)})`;
    const v = treeVerdict(repo);
    await cli(['daemon', 'stop']);
    const pass = said && v.state !== 'mixed' && v.temps.length === 0 && how !== undefined && !how.startsWith('nothing');
    const outcome = `${said ? 'DAEMON_FAILED with the journal' : `answer: ${r.stderr.split('\n')[0]!.slice(0, 80)}`}; ${how}; tree ${v.state}, ${v.temps.length} temp file(s)`;
    out.push({
      what: c.what,
      frontend: 'CLI',
      expected: 'DAEMON_FAILED, tree wholly renamed or as before',
      outcome,
      pass,
      ms: Math.round(performance.now() - t0),
    });
  }
  return out;
}

const OTHER_USER = 'lspgate-redteam';

/** The second local user (created when missing: the redteam runs as root on the bench machines). */
function otherUser(): string | undefined {
  if (spawnSync('id', ['-u', OTHER_USER]).status === 0) return OTHER_USER;
  const r = spawnSync('useradd', ['--no-create-home', '--shell', '/usr/sbin/nologin', OTHER_USER]);
  return r.status === 0 ? OTHER_USER : undefined;
}

/** Paths under `dir` (itself included). */
function allPaths(dir: string): string[] {
  const out = [dir];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const abs = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...allPaths(abs));
    else if (e.isFile()) out.push(abs);
  }
  return out;
}

/**
 * Every directory and file of the cache, opened as another local user: none may be listed or read.
 * The parents of the cache are made traversable for the check (the temp dir is 0700 itself), so only
 * the cache's own modes stand in the way; a world-readable control file beside it must be readable,
 * or the check proves nothing.
 */
export function cacheAsOtherUser(tmp: string, caches: string[]): Line {
  const t0 = performance.now();
  const what = 'the cache read by a second local user (every directory listed, every file opened)';
  const user = otherUser();
  if (!user) return { what, frontend: 'all', expected: 'nothing readable', outcome: 'no second user (useradd failed: not root?)', pass: false, ms: 0 };
  const control = path.join(tmp, 'control.txt');
  fs.writeFileSync(control, 'readable by anyone\n', { mode: 0o644 });
  const mode = fs.statSync(tmp).mode & 0o777;
  fs.chmodSync(tmp, 0o755);
  try {
    const paths = caches.filter((c) => fs.existsSync(c)).flatMap(allPaths);
    const script =
      'while IFS= read -r f; do if [ -d "$f" ]; then ls "$f" >/dev/null 2>&1 && echo "$f"; else head -c1 "$f" >/dev/null 2>&1 && echo "$f"; fi; done';
    // the loop's status is its last test's: only what it printed counts
    const r = spawnSync('runuser', ['-u', user, '--', 'sh', '-c', script], { input: [control, ...paths].join('\n') + '\n', encoding: 'utf8' });
    if (r.error || r.stdout === null) throw r.error ?? new Error(`runuser: ${r.stderr}`);
    const readable = r.stdout.split('\n').filter(Boolean);
    const leaked = readable.filter((p) => p !== control);
    const ok = readable.includes(control) && leaked.length === 0;
    const outcome = `${paths.length} cache paths, ${leaked.length} readable${leaked.length ? `: ${leaked.slice(0, 3).join(', ')}` : ''}; control file ${readable.includes(control) ? 'readable' : 'NOT readable (check void)'}`;
    return { what, frontend: 'all', expected: 'nothing readable, the control file readable', outcome, pass: ok, ms: Math.round(performance.now() - t0) };
  } finally {
    fs.chmodSync(tmp, mode);
  }
}
