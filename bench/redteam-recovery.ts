/**
 * What `npm run redteam` checks of recovery against a second local user (the scenarios of
 * test/helpers/hostile-journals.ts: their 0777 cache dir, a journal they planted over ~/.bashrc, the
 * user's own journals escaping the root or carrying their temp file), each through `lspgate recover`
 * and through a workspace open (a one-shot call, in-process). Pass: a cache dir of theirs is refused
 * with UNSAFE_DIRECTORY and nothing in it changes; every other journal is set aside and said; the
 * victim file keeps its bytes and owner.
 */
import fs from 'node:fs';
import path from 'node:path';

import { buildScenario, KINDS, listing, otherUser, type Scenario } from '../test/helpers/hostile-journals.js';
import { runCli } from '../test/helpers/spawn.js';
import type { Line } from './redteam-writes.js';

const EXPECTED = 'UNSAFE_DIRECTORY for their cache dir, else set aside; the victim file unchanged';

async function door(s: Scenario, how: 'recover' | 'open'): Promise<{ code: number | null; said: string; stderr: string }> {
  const args = how === 'recover' ? ['recover', '--root', s.root] : ['get_file_tree', '--root', s.root, '--json'];
  const r = await runCli(args, { cacheDir: s.cache, cwd: s.root, env: { LSPGATE_DAEMON: 'off', XDG_RUNTIME_DIR: '' } });
  return { code: r.code, said: `${r.stdout}\n${r.stderr}`, stderr: r.stderr };
}

function victimKept(s: Scenario): boolean {
  return fs.readFileSync(s.victim, 'utf8') === s.victimBefore && fs.statSync(s.victim).uid === process.getuid?.();
}

async function row(base: string, kind: (typeof KINDS)[number], how: 'recover' | 'open', user: string): Promise<Line> {
  const t0 = performance.now();
  const s = buildScenario(path.join(base, `${kind}-${how}`), kind, user);
  const problems: string[] = [];
  const before = listing(s.cache);
  let r = await door(s, how);
  if (s.first === 'UNSAFE_DIRECTORY') {
    if (!r.stderr.includes('UNSAFE_DIRECTORY')) problems.push(`no UNSAFE_DIRECTORY (exit ${r.code}: ${r.said.trim().split('\n')[0]!.slice(0, 100)})`);
    if (kind === 'foreign-cache' && JSON.stringify(listing(s.cache)) !== JSON.stringify(before)) problems.push('their cache dir was written');
    if (s.fix && victimKept(s)) {
      s.fix();
      r = await door(s, how);
    }
  }
  if (s.first === 'set_aside' || s.fix) {
    if (!/set aside, nothing of it applied/.test(r.said) || fs.existsSync(s.journal))
      problems.push(`not set aside (exit ${r.code}: ${r.said.trim().split('\n')[0]!.slice(0, 100)})`);
  }
  if (!victimKept(s)) problems.push('THE VICTIM FILE WAS REPLACED');
  const outcome = problems.length
    ? problems.join('; ')
    : s.first === 'UNSAFE_DIRECTORY'
      ? `UNSAFE_DIRECTORY${s.fix ? ', then set aside' : ''}; victim unchanged`
      : 'set aside; victim unchanged';
  return {
    what: `recovery: ${s.what}`,
    frontend: how === 'recover' ? 'lspgate recover' : 'CLI (workspace open)',
    expected: EXPECTED,
    outcome,
    pass: !problems.length,
    ms: Math.round(performance.now() - t0),
  };
}

/** Every scenario through both doors; `tmp` is made traversable for the second user while they run. */
export async function recoveryRows(tmp: string): Promise<Line[]> {
  const user = otherUser();
  if ('reason' in user)
    return [{ what: 'recovery against a second local user', frontend: 'all', expected: EXPECTED, outcome: `not run: ${user.reason}`, pass: false, ms: 0 }];
  const mode = fs.statSync(tmp).mode & 0o777;
  fs.chmodSync(tmp, 0o755);
  const base = path.join(tmp, 'recovery');
  const out: Line[] = [];
  try {
    for (const how of ['recover', 'open'] as const) for (const kind of KINDS) out.push(await row(base, kind, how, user.name));
  } finally {
    fs.chmodSync(tmp, mode);
  }
  return out;
}
