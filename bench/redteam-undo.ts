/**
 * What `npm run redteam` checks of `undo` against planted records (test/helpers/planted-records.ts):
 * each hostile record — writable by others, a backup outside the cache through a symlinked backup
 * folder, a target in .git/hooks, a removed file's mode 0755, another root — alone in the records
 * folder of a fresh workspace, then `lspgate undo` through the one-shot CLI. Pass: the answer is
 * INVALID_INPUT saying the record was set aside, the target was never written, the record is gone
 * from the records folder. A last row puts a genuine record under two planted ones: the genuine one
 * is undone (without execute bits), the planted ones are set aside.
 */
import fs from 'node:fs';
import path from 'node:path';

import { type Plant, plantRecord, PLANTS } from '../test/helpers/planted-records.js';
import { runCli } from '../test/helpers/spawn.js';
import type { Line } from './redteam-writes.js';

const EXPECTED = 'INVALID_INPUT, set aside; target never written';

function world(base: string): { root: string; cache: string; outside: string } {
  const root = path.join(base, 'root');
  const cache = path.join(base, 'cache');
  const outside = path.join(base, 'outside');
  for (const d of [path.join(root, '.git/hooks'), path.join(root, 'scripts'), outside]) fs.mkdirSync(d, { recursive: true });
  fs.writeFileSync(path.join(root, 'README.md'), '# plain\n');
  fs.mkdirSync(cache, { recursive: true, mode: 0o700 });
  return { root, cache, outside };
}

const undo = (root: string, cache: string) =>
  runCli(['undo', '--root', root, '--json'], { cacheDir: cache, cwd: root, env: { LSPGATE_DAEMON: 'off', XDG_RUNTIME_DIR: '' } });

async function alone(base: string, kind: Exclude<Plant, 'genuine'>): Promise<Line> {
  const t0 = performance.now();
  const w = world(path.join(base, kind));
  const p = plantRecord(w.cache, w.root, kind, w.outside);
  const r = await undo(w.root, w.cache);
  const problems = [
    r.code === 0 || !r.stderr.includes('INVALID_INPUT') ? `answered exit ${r.code}: ${(r.stderr || r.stdout).slice(0, 100)}` : '',
    /set aside, nothing of it restored/.test(r.stderr) ? '' : 'no set-aside reason',
    fs.existsSync(p.target) ? 'THE TARGET WAS WRITTEN' : '',
    fs.existsSync(p.record) ? 'the record is still in place' : '',
  ].filter(Boolean);
  const reason = /set aside, nothing of it restored: ([^;]*)/.exec(r.stderr)?.[1] ?? '';
  return {
    what: `undo: a planted record (${kind})`,
    frontend: 'CLI',
    expected: EXPECTED,
    outcome: problems.length ? problems.join('; ') : `INVALID_INPUT, set aside: ${reason.slice(0, 120)}`,
    pass: !problems.length,
    ms: Math.round(performance.now() - t0),
  };
}

async function mixed(base: string): Promise<Line> {
  const t0 = performance.now();
  const w = world(path.join(base, 'mixed'));
  const good = plantRecord(w.cache, w.root, 'genuine', w.outside, 1);
  const bad = [plantRecord(w.cache, w.root, 'target-in-git', w.outside, 2), plantRecord(w.cache, w.root, 'mode-exec', w.outside, 3)];
  const r = await undo(w.root, w.cache);
  const warnings = r.code === 0 ? ((JSON.parse(r.stdout) as { _meta: { warnings?: string[] } })._meta.warnings ?? []) : [];
  const problems = [
    r.code !== 0 ? `exit ${r.code}: ${r.stderr.slice(0, 100)}` : '',
    fs.existsSync(good.target) && fs.readFileSync(good.target, 'utf8') === good.restored ? '' : 'the genuine record was not undone',
    fs.existsSync(good.target) && fs.statSync(good.target).mode & 0o111 ? 'the restored file is executable' : '',
    bad.some((p) => fs.existsSync(p.target)) ? 'A PLANTED TARGET WAS WRITTEN' : '',
    warnings.filter((m) => m.includes('set aside')).length === 2 ? '' : `${warnings.length} warning(s)`,
  ].filter(Boolean);
  return {
    what: 'undo: a genuine record under two planted ones (.git/hooks target, mode 0755)',
    frontend: 'CLI',
    expected: 'the genuine one undone 0644, both planted set aside and said',
    outcome: problems.length ? problems.join('; ') : 'genuine undone (0644), 2 set aside in _meta.warnings',
    pass: !problems.length,
    ms: Math.round(performance.now() - t0),
  };
}

export async function undoRows(tmp: string): Promise<Line[]> {
  const base = path.join(tmp, 'undo-planted');
  const out: Line[] = [];
  for (const kind of PLANTS) if (kind !== 'genuine') out.push(await alone(base, kind));
  out.push(await mixed(base));
  return out;
}
