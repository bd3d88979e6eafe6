/**
 * Crash safety of the journaled apply, measured: 20 SIGKILLs of the daemon at random points of a
 * 300-file rename apply (bench/gen-repo.ts's repository, one function used by every file, renamed
 * through the one-shot CLI, a thin client of the daemon). The kill is sent by a watcher on the cache's
 * journal directory (test/helpers/apply-crash.ts), at a point drawn from a seeded random source:
 * while the backups and temp files are written (the journal appeared), right after `staged`, or after
 * k of the 301 renames. Then recovery — the next start of the workspace (a CLI call through a new
 * daemon) in even rounds, `lspgate recover --root` in odd ones — and the tree is compared byte for byte
 * with its contents before and after the rename: wholly one or the other, no temp file. Prints a row
 * per round and the tally; exit 1 if any round left a torn tree or a temp file.
 *   npm run build && node dist/bench/kill-apply.js [--rounds N] [--files N] [--seed S]
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { addSharedUse, killAtJournal, type KillPoint, NEW_NAME, OLD_NAME, type RenameRepo, treeVerdict } from '../test/helpers/apply-crash.js';
import { childEnv, CLI } from '../test/helpers/spawn.js';
import { generateRepo } from './gen-repo.js';
import { createRng, type Rng } from './seeded-random.js';

interface Round {
  round: number;
  point: string;
  /** Journal records when the kill was sent. */
  reached: string;
  answer: string;
  recoveredBy: string;
  action: string;
  tree: string;
  temps: number;
  /** Journals still there after recovery (an apply neither completed nor rolled back). */
  journals: number;
  ms: number;
}

function arg(name: string, dflt: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
}

function run(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [CLI, ...args], { env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    p.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    p.on('exit', (code) => resolve({ code, stdout: out, stderr: err }));
  });
}

function drawPoint(rng: Rng, files: number): KillPoint {
  const r = rng.next();
  if (r < 0.25) return { at: 'created' };
  if (r < 0.4) return { at: 'staged' };
  return { at: 'renamed', count: 1 + rng.int(files - 1) };
}

const describePoint = (p: KillPoint) => (p.at === 'renamed' ? `after ${p.count} rename(s)` : p.at === 'created' ? 'journal created (staging)' : 'staged');

function restore(repo: RenameRepo): void {
  for (const [rel, text] of repo.before) fs.writeFileSync(path.join(repo.root, rel), text);
}

/** The recovery's own words: from the next answer's _meta.warnings, or from `lspgate recover --json`. */
async function recover(round: number, repo: RenameRepo, env: Record<string, string>): Promise<{ by: string; action: string }> {
  if (round % 2 === 0) {
    const r = await run(['get_file_tree', '--root', repo.root, '--json'], env);
    const warnings =
      r.code === 0 ? ((JSON.parse(r.stdout) as { _meta: { warnings?: string[] } })._meta.warnings ?? []) : [`exit ${r.code}: ${r.stderr.slice(0, 200)}`];
    const w = warnings.find((x) => x.includes('interrupted')) ?? warnings.join('; ');
    return {
      by: 'next start',
      action: /: completed/.test(w) ? 'completed' : /: rolled back/.test(w) ? 'rolled back' : w ? `? ${w.slice(0, 80)}` : 'nothing said',
    };
  }
  const r = await run(['recover', '--root', repo.root, '--json'], env);
  const got =
    r.code === 0 ? (JSON.parse(r.stdout) as { recovered: { action: string }[] }).recovered.map((o) => o.action.replace('_', ' ')) : [`exit ${r.code}`];
  return { by: 'lspgate recover', action: got.join(', ') || 'nothing to recover' };
}

async function oneRound(round: number, rng: Rng, repo: RenameRepo, cache: string, env: Record<string, string>): Promise<Round> {
  const t0 = performance.now();
  restore(repo);
  const point = drawPoint(rng, repo.before.size);
  const killer = killAtJournal(cache, point);
  const r = await run(['rename_symbol', '--root', repo.root, '--symbol', OLD_NAME, `--new-name=${NEW_NAME}`, '--apply', '--json'], env);
  killer.close();
  const kill = await Promise.race([killer.killed, new Promise<undefined>((res) => setTimeout(() => res(undefined), 100))]);
  const answer =
    r.code === 0
      ? 'applied (no kill)'
      : /DAEMON_FAILED/.test(r.stderr)
        ? `DAEMON_FAILED, ${/"written": (\d+)/.exec(r.stderr)?.[1] ?? '?'} written`
        : `exit ${r.code}: ${r.stderr.split('\n')[0]!.slice(0, 60)}`;
  const rec = await recover(round, repo, env);
  const v = treeVerdict(repo);
  const journals = fs.readdirSync(path.join(cache, 'journals')).length;
  const reached = kill ? `${kill.records.filter((x) => x === 'renamed').length} renamed${kill.records.includes('staged') ? ', staged' : ''}` : '-';
  return {
    round,
    point: describePoint(point),
    reached,
    answer,
    recoveredBy: rec.by,
    action: rec.action,
    tree: v.state === 'mixed' ? `TORN (${v.mixed.slice(0, 3).join(', ')})` : v.state,
    temps: v.temps.length,
    journals,
    ms: Math.round(performance.now() - t0),
  };
}

async function main(): Promise<number> {
  const rounds = arg('--rounds', 20);
  const files = arg('--files', 300);
  const rng = createRng(arg('--seed', 7));
  const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-kill-apply-')));
  const gen = generateRepo({ files, out: path.join(tmp, 'repo') });
  const repo = addSharedUse(
    gen.root,
    gen.files.filter((f) => f.endsWith('.ts') && f !== 'src/index.ts'),
  );
  const cache = path.join(tmp, 'cache');
  fs.mkdirSync(path.join(tmp, 'run'), { mode: 0o700 });
  const env = { LSPGATE_CACHE_DIR: cache, XDG_RUNTIME_DIR: path.join(tmp, 'run'), LSPGATE_DAEMON: 'auto' };
  const out: Round[] = [];
  try {
    for (let i = 0; i < rounds; i++) {
      const row = await oneRound(i, rng, repo, cache, env);
      out.push(row);
      process.stderr.write(
        `round ${i + 1}: ${row.point} → ${row.answer}; ${row.recoveredBy}: ${row.action}; tree ${row.tree}, ${row.temps} temp file(s), ${row.journals} journal(s) left (${row.ms} ms)\n`,
      );
    }
  } finally {
    await run(['daemon', 'stop'], env);
  }
  const lines = [
    '| round | kill point | journal at the kill | CLI answer | recovered by | recovery | tree | temp files | journals left | ms |',
    '|---:|---|---|---|---|---|---|---:|---:|---:|',
  ];
  for (const r of out)
    lines.push(
      `| ${r.round + 1} | ${r.point} | ${r.reached} | ${r.answer} | ${r.recoveredBy} | ${r.action} | ${r.tree} | ${r.temps} | ${r.journals} | ${r.ms} |`,
    );
  const count = (f: (r: Round) => boolean) => out.filter(f).length;
  const torn = count((r) => r.tree !== 'before' && r.tree !== 'after') + count((r) => r.temps > 0) + count((r) => r.journals > 0);
  const tally = `${out.length} kills of the daemon during a ${repo.before.size}-file rename apply: ${count((r) => r.tree === 'after')} wholly renamed (completed), ${count((r) => r.tree === 'before')} wholly as before (rolled back), ${count((r) => r.tree.startsWith('TORN'))} torn, ${out.reduce((n, r) => n + r.temps, 0)} temp files and ${out.reduce((n, r) => n + r.journals, 0)} journals left; ${count((r) => r.answer.startsWith('DAEMON_FAILED'))} CLI calls answered DAEMON_FAILED, ${count((r) => r.answer.startsWith('applied'))} finished before the kill`;
  process.stdout.write(
    `${lines.join('\n')}\n\n**${tally}** (${new Date().toISOString()}; load ${os
      .loadavg()
      .map((n) => n.toFixed(1))
      .join(' ')}; node ${process.version})\n`,
  );
  fs.rmSync(tmp, { recursive: true, force: true });
  return torn ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`kill-apply: ${(e as Error).stack ?? String(e)}\n`);
    process.exit(1);
  },
);
