/**
 * `npm run redteam`: the hostile-input corpus (test/helpers/hostile-corpus.ts, plus
 * bench/redteam-workspace.ts) through every front-end as a user starts it — spawned MCP stdio,
 * MCP HTTP and sidecar (one process each, shared by all rows) and the one-shot CLI (one process
 * per row) — plus the framing and oversize cases (bench/redteam-framing.ts) and the coverage-file
 * and embedder-answer cases (bench/redteam-bounded.ts). Prints a markdown
 * table case × front-end → outcome, pass/fail, ms, and a summary line; exits 1 if any case fails.
 * Pass = the row's error code (or a safe answer where the row expects one; 'any' = a coded error
 * other than INTERNAL or a safe answer), neither canary in what the client got, and afterwards
 * each process still answers. Also checked: the npm registry tsserver could ask for typings (a
 * local stand-in, fixtures/fake-registry) got no request, and no process is left behind.
 *   npm run redteam            (node dist/bench/redteam.js [--only <substring>])
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { daemonPaths } from '../src/frontends/daemon-client/socket-dir.js';
import {
  buildHostileWorkspace,
  cliCanCarry,
  hostileRows,
  type HostileWorkspace,
  OUTSIDE_CANARY,
  type Row,
  SECRET_CANARY,
} from '../test/helpers/hostile-corpus.js';
import { REPO } from '../test/helpers/spawn.js';
import { runCli } from '../test/helpers/spawn.js';
import { boundedCases } from './redteam-bounded.js';
import { framingCases } from './redteam-framing.js';
import { type Frontend, mcpHttp, mcpStdio, oneShotCli, type Outcome, SAFE, sidecar } from './redteam-frontends.js';
import { gitRows } from './redteam-git.js';
import { extendNamesWorkspace, nameRows, rawControls } from './redteam-names.js';
import { parseRows } from './redteam-parse.js';
import { leftovers, startRegistry, stopDaemon } from './redteam-procs.js';
import { recoveryRows } from './redteam-recovery.js';
import { serverlifeRows } from './redteam-serverlife.js';
import { profileAndTextRows } from './redteam-texts.js';
import { trustRows } from './redteam-trust.js';
import { undoRows } from './redteam-undo.js';
import { extendHostileWorkspace, extraRows } from './redteam-workspace.js';
import { cacheAsOtherUser, killRows, type Line, writeRows } from './redteam-writes.js';

const leaks = (text: string): boolean => text.includes(OUTSIDE_CANARY) || text.includes(SECRET_CANARY);

function judge(row: Row, got: Outcome): boolean {
  if (leaks(got.text) || rawControls(got.text)) return false;
  if (got.outcome === 'INTERNAL' || got.outcome.startsWith('uncoded')) return false;
  if (row.code === 'any') return true;
  return got.outcome === (row.code === 'none' ? SAFE : row.code);
}

async function runRow(fe: Frontend, row: Row): Promise<Line> {
  const t0 = performance.now();
  const bound = new Promise<Outcome>((resolve) => setTimeout(() => resolve({ outcome: 'no answer in 180 s', text: '' }), 180_000).unref());
  const got = await Promise.race([fe.call(row.op, row.input()), bound]);
  const ms = Math.round(performance.now() - t0);
  const total = got.outcome === SAFE ? /"total":\s*(\d+)/.exec(got.text) : null;
  const shown = total ? `${got.outcome} (total ${total[1]})` : got.outcome;
  const outcome = leaks(got.text) ? `${shown} — LEAKED A CANARY` : shown;
  return { what: row.what, frontend: fe.name, expected: row.code === 'none' ? SAFE : row.code, outcome, pass: judge(row, got), ms };
}

function report(line: Line, lines: Line[]): void {
  lines.push(line);
  process.stderr.write(`${line.pass ? 'ok  ' : 'FAIL'} ${line.frontend}: ${line.what} → ${line.outcome} (${line.ms} ms)\n`);
}

/** Every row through one front-end, in order (a long-lived process serves them one after another). */
async function runAll(fe: Frontend, rows: Row[], out: Line[]): Promise<void> {
  for (const row of rows) {
    const line = await runRow(fe, row);
    out.push(line);
    process.stderr.write(`${line.pass ? 'ok  ' : 'FAIL'} ${fe.name}: ${row.what} → ${line.outcome} (${line.ms} ms)\n`);
  }
}

async function stillAnswers(fe: Frontend): Promise<Line> {
  const t0 = performance.now();
  const got = await fe.call('get_file_tree', {});
  const pass = got.outcome === SAFE && !leaks(got.text);
  return { what: 'still answers after the corpus', frontend: fe.name, expected: SAFE, outcome: got.outcome, pass, ms: Math.round(performance.now() - t0) };
}

function table(lines: Line[]): string {
  const esc = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const out = ['| case | front-end | expected | outcome | pass | ms |', '|---|---|---|---|---|---:|'];
  for (const l of lines) out.push(`| ${esc(l.what)} | ${l.frontend} | ${esc(l.expected)} | ${esc(l.outcome)} | ${l.pass ? 'pass' : '**FAIL**'} | ${l.ms} |`);
  return out.join('\n');
}

async function main(): Promise<number> {
  const only = process.argv.includes('--only') ? (process.argv[process.argv.indexOf('--only') + 1] ?? '') : '';
  const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-redteam-')));
  const w: HostileWorkspace = { root: '', outside: '' };
  buildHostileWorkspace(tmp, w);
  extendHostileWorkspace(w);
  extendNamesWorkspace(w);
  const rows = [...hostileRows(w), ...extraRows(), ...nameRows(w)].filter((r) => r.what.includes(only));
  const registry = await startRegistry(REPO);
  process.env.npm_config_registry = registry.url;
  process.env.XDG_CACHE_HOME = path.join(tmp, 'xdg-cache');
  // one cache dir: every front-end attaches to the one lspgate daemon it starts (the default, --daemon auto)
  const cache = path.join(tmp, 'cache');
  const started = Date.now();
  const lines: Line[] = [];
  const fes: Frontend[] = [];
  const spawned: ChildProcess[] = [registry.child];
  try {
    const stdio = await mcpStdio(w.root, cache, tmp);
    const http = await mcpHttp(w.root, cache, tmp);
    const side = sidecar(w.root, cache, tmp);
    const cli = oneShotCli(w.root, cache, tmp);
    fes.push(stdio, http, side, cli);
    await Promise.all([runAll(stdio, rows, lines), runAll(http, rows, lines), runAll(side, rows, lines)]);
    await runAll(cli, rows.filter(cliCanCarry), lines);
    for (const c of framingCases(w.root, cache, stdio, http)) {
      const t0 = performance.now();
      const r = await c.run();
      const pass = r.pass && !leaks(r.text);
      lines.push({
        what: c.what,
        frontend: c.frontend,
        expected: 'coded refusal, process answers or closes cleanly',
        outcome: r.outcome,
        pass,
        ms: Math.round(performance.now() - t0),
      });
    }
    // coverage files and embedder answers (bounded parsers, a validated embedder): workspaces of their own
    if (!only || /coverage|embedder/.test(only)) lines.push(...(await boundedCases(tmp, cache)));
    if (!only || /half-open|SIGSTOP/.test(only)) lines.push(...(await serverlifeRows(tmp)));
    if (!only || (only.includes('trust') && !/^trust (profile|text)/.test(only))) for (const l of await trustRows()) report(l, lines);
    if (!only || only.includes('trust')) for (const l of await profileAndTextRows(only)) report(l, lines);
    if (!only || only.startsWith('hostile parse')) for (const l of await parseRows()) report(l, lines);
    for (const fe of [stdio, http, side]) lines.push(await stillAnswers(fe));
    if (!only || only.startsWith('hostile git')) for (const l of await gitRows(tmp, cache)) report(l, lines);
    if (!only || only.startsWith('write')) {
      // the write path: each front-end on its own copy of the write workspace, then kills during applies
      for (const l of await writeRows(tmp, cache)) report(l, lines);
      for (const l of await killRows(tmp)) report(l, lines);
      // the default cache dir (no LSPGATE_CACHE_DIR: $XDG_CACHE_HOME/lspgate), for the permission check
      await runCli(['get_file_tree', '--root', w.root, '--json'], { cacheDir: '', cwd: tmp });
      await runCli(['daemon', 'stop'], { cacheDir: '', cwd: tmp });
    }
    if (!only || only.startsWith('recover')) for (const l of await recoveryRows(tmp)) report(l, lines);
    if (!only || only.startsWith('undo')) for (const l of await undoRows(tmp)) report(l, lines);
    const log = daemonPaths(cache).log;
    const stderrLeak = fes.some((fe) => leaks(fe.stderr())) || (fs.existsSync(log) && leaks(fs.readFileSync(log, 'utf8')));
    lines.push({
      what: 'no canary or secret in any stderr log (front-ends and the daemon log)',
      frontend: 'all',
      expected: 'none',
      outcome: stderrLeak ? 'leaked' : 'none',
      pass: !stderrLeak,
      ms: 0,
    });
  } finally {
    for (const fe of fes) await fe.close().catch(() => undefined);
  }
  const asked = registry.requests();
  lines.push({
    what: 'npm registry asked for typings (type acquisition)',
    frontend: 'all',
    expected: '0 requests',
    outcome: `${asked.length} requests`,
    pass: asked.length === 0,
    ms: 0,
  });
  registry.child.kill('SIGTERM');
  lines.push(await stopDaemon(cache));
  const left = await leftovers(tmp, spawned);
  lines.push({
    what: 'processes left behind after closing',
    frontend: 'all',
    expected: 'none',
    outcome: left.length ? left.join('; ') : 'none',
    pass: left.length === 0,
    ms: 0,
  });
  const caches = [
    cache,
    path.join(tmp, 'xdg-cache', 'lspgate'),
    ...fs
      .readdirSync(tmp)
      .filter((n) => n.startsWith('kill-'))
      .map((n) => path.join(tmp, n, 'cache')),
  ];
  lines.push(cacheAsOtherUser(tmp, caches));
  const failed = lines.filter((l) => !l.pass);
  const load = os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
  process.stdout.write(`${table(lines)}\n\n`);
  process.stdout.write(
    `**${lines.length - failed.length}/${lines.length} pass, ${failed.length} fail** (${rows.length} corpus rows; ${new Date().toISOString()}; ${Math.round((Date.now() - started) / 1000)} s; load ${load}; ${os.cpus().length} cores; node ${process.version})\n`,
  );
  fs.rmSync(tmp, { recursive: true, force: true });
  return failed.length ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`redteam: ${(e as Error).stack ?? String(e)}\n`);
    process.exit(1);
  },
);
