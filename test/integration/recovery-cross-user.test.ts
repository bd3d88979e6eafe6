/**
 * Another local user must not steer a recovery (test/helpers/hostile-journals.ts has the scenarios,
 * with a real second user): a cache dir of theirs is refused with UNSAFE_DIRECTORY and nothing is
 * read or written in it; a journal they planted, or a journal of the user's own whose paths leave
 * the root or whose temp file is theirs, is set aside — reported, moved out of journals/, nothing of
 * it applied — and the victim file keeps its bytes and owner. Each through `lspgate recover`
 * (spawned) and through a workspace open (a one-shot call, which recovers the root's journals
 * first); the planted journal also through the daemon, whose log names the reason.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { buildScenario, EVIL, KINDS, listing, otherUser, type Scenario } from '../helpers/hostile-journals.js';
import { assertBuilt, runCli } from '../helpers/spawn.js';

const user = otherUser();
let tmp: string;

beforeAll(() => {
  assertBuilt();
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-recovery-')));
  // the second user must reach the scenario folders (mkdtemp makes 0700)
  fs.chmodSync(tmp, 0o755);
});
afterAll(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

type Door = 'recover' | 'open';

function call(s: Scenario, door: Door, daemon = 'off') {
  const args = door === 'recover' ? ['recover', '--root', s.root] : ['get_file_tree', '--root', s.root, '--json'];
  // no XDG_RUNTIME_DIR: the daemon's directory would be made inside the cache dir
  return runCli(args, { cacheDir: s.cache, cwd: s.root, env: { LSPGATE_DAEMON: daemon, XDG_RUNTIME_DIR: '' } });
}

function victimKept(s: Scenario): void {
  expect(fs.readFileSync(s.victim, 'utf8')).toBe(s.victimBefore);
  expect(fs.readFileSync(s.victim, 'utf8')).not.toBe(EVIL);
  expect(fs.statSync(s.victim).uid).toBe(process.getuid!());
}

function saidSetAside(out: string, s: Scenario): void {
  expect(out).toMatch(/set aside, nothing of it applied/);
  expect(fs.existsSync(s.journal)).toBe(false);
  expect(fs.readdirSync(path.join(s.cache, 'journals-set-aside'))).toHaveLength(1);
}

// a second local user needs root (useradd, runuser): elsewhere this says why and is skipped
const describeCrossUser = 'reason' in user ? describe.skip : describe;
if ('reason' in user) process.stderr.write(`recovery-cross-user: SKIPPED — ${user.reason}\n`);

describeCrossUser('recovery acts only on journals provably the user’s', () => {
  const name = 'name' in user ? user.name : '';

  for (const door of ['recover', 'open'] as const) {
    it(`another user's 0777 cache dir is refused (UNSAFE_DIRECTORY), nothing read or written there — ${door}`, { timeout: 120_000 }, async () => {
      const s = buildScenario(path.join(tmp, `foreign-cache-${door}`), 'foreign-cache', name);
      const before = listing(s.cache);
      const r = await call(s, door, 'auto');
      expect(r.code, r.stdout).not.toBe(0);
      expect(r.stderr).toContain('UNSAFE_DIRECTORY');
      expect(r.stderr).toContain(s.cache);
      expect(listing(s.cache)).toEqual(before);
      victimKept(s);
    });

    for (const kind of KINDS.filter((k) => k !== 'foreign-cache')) {
      it(`${kind}: set aside and reported, the victim file unchanged — ${door}`, { timeout: 120_000 }, async () => {
        const s = buildScenario(path.join(tmp, `${kind}-${door}`), kind, name);
        if (s.first === 'UNSAFE_DIRECTORY') {
          const refused = await call(s, door);
          expect(refused.code).not.toBe(0);
          expect(refused.stderr).toContain('UNSAFE_DIRECTORY');
          expect(refused.stderr).toContain(path.join(s.cache, 'journals'));
          victimKept(s);
          s.fix!();
        }
        const r = await call(s, door);
        expect(r.code, r.stderr).toBe(0);
        if (door === 'open') {
          const warnings = (JSON.parse(r.stdout) as { _meta: { warnings?: string[] } })._meta.warnings ?? [];
          saidSetAside(warnings.join('\n'), s);
        } else saidSetAside(r.stdout, s);
        victimKept(s);
      });
    }
  }

  it('through the daemon: the planted journal is set aside and the daemon log says why', { timeout: 180_000 }, async () => {
    const s = buildScenario(path.join(tmp, 'planted-daemon'), 'planted-journal', name);
    s.fix!();
    try {
      const r = await call(s, 'open', 'require');
      expect(r.code, r.stderr).toBe(0);
      saidSetAside(((JSON.parse(r.stdout) as { _meta: { warnings?: string[] } })._meta.warnings ?? []).join('\n'), s);
      victimKept(s);
    } finally {
      await runCli(['daemon', 'stop'], { cacheDir: s.cache, cwd: s.root, env: { XDG_RUNTIME_DIR: '' } });
    }
    const logs = fs.readdirSync(path.join(s.cache, 'daemon')).filter((n) => n.endsWith('.log'));
    const log = logs.map((n) => fs.readFileSync(path.join(s.cache, 'daemon', n), 'utf8')).join('');
    expect(log).toMatch(/set aside, nothing of it applied: the journal belongs to uid \d+, not to this user/);
  });
});
