/**
 * Apply journals that recovery must not carry out, for test/integration/recovery-cross-user.test.ts
 * and bench/redteam-recovery.ts. Each scenario is a fresh folder holding a workspace root, a cache,
 * a "home" with the victim's `.bashrc`, and one hostile journal claiming a crashed, staged apply
 * whose completion would move an attacker's bytes over the victim file:
 *   foreign-cache   — the cache dir is a second local user's, mode 0777, and holds their journal;
 *   planted-journal — the user's own cache, but its journals/ was left 0777 (an old umask): the
 *                     second user planted a journal there naming ~/.bashrc with their own temp file;
 *   escape-dotdot   — the user's own journal whose file is `../home/.bashrc`;
 *   escape-symlink  — the user's own journal whose file goes through a symlinked folder in the root;
 *   foreign-temp    — the user's own journal over a file of the root, its temp file the second user's.
 * The second user writes their files themselves (runuser), as the attack would.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export const OTHER_USER = 'lspgate-redteam';
export const EVIL = 'echo owned by the other user\n';
export const KINDS = ['foreign-cache', 'planted-journal', 'escape-dotdot', 'escape-symlink', 'foreign-temp'] as const;
export type Kind = (typeof KINDS)[number];

/** The second local user (created when missing: tests and the red team run as root); undefined with the reason when it cannot be. */
export function otherUser(): { name: string; uid: number } | { reason: string } {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return { reason: 'not root: a second local user cannot be created or impersonated' };
  if (spawnSync('id', ['-u', OTHER_USER]).status !== 0) {
    const r = spawnSync('useradd', ['--no-create-home', '--shell', '/usr/sbin/nologin', OTHER_USER], { encoding: 'utf8' });
    if (r.status !== 0) return { reason: `useradd failed: ${r.stderr || r.error?.message}` };
  }
  return { name: OTHER_USER, uid: Number(spawnSync('id', ['-u', OTHER_USER], { encoding: 'utf8' }).stdout.trim()) };
}

/** Runs a shell script as `user`, stdin `input`; throws when it fails. */
function asUser(user: string, script: string, input = ''): void {
  const r = spawnSync('runuser', ['-u', user, '--', 'sh', '-c', script], { input, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`runuser ${user}: ${script}: ${r.stderr || r.error?.message}`);
}

const sha = (t: string) => createHash('sha256').update(t).digest('hex');
/** No process has this pid (above Linux's largest pid_max): the journal's owner is gone. */
const DEAD_PID = 4_194_305;

export interface Scenario {
  kind: Kind;
  what: string;
  root: string;
  cache: string;
  /** The file the journal would overwrite, and its bytes before. */
  victim: string;
  victimBefore: string;
  /** Where the journal lies. */
  journal: string;
  /** The first answer: UNSAFE_DIRECTORY (an unsafe cache or journals dir) or set_aside. */
  first: 'UNSAFE_DIRECTORY' | 'set_aside';
  /** After an UNSAFE_DIRECTORY: what the user does as the error says (chmod 700), then the journal is set aside; undefined: nothing to fix. */
  fix?: () => void;
}

function journalText(id: string, root: string, cache: string, step: { file: string; abs: string; tmp: string }, before: string): string {
  const backupDir = path.join(cache, 'backups', 'ws-00000000', id);
  const begin = {
    t: 'begin',
    v: 1,
    id,
    root,
    workspace: 'ws-00000000',
    operation: 'rename_symbol',
    pid: DEAD_PID,
    time: new Date().toISOString(),
    backup_dir: backupDir,
    files: [{ ...step, backup: path.join(backupDir, step.file), before: sha(before), after: sha(EVIL) }],
  };
  return `${JSON.stringify(begin)}\n${JSON.stringify({ t: 'staged' })}\n`;
}

/** The temp file lspgate names beside a target (src/service/editing/apply-journal.ts tempPathFor). */
const tempBeside = (abs: string, id: string) => path.join(path.dirname(abs), `.${path.basename(abs)}.lspgate-${id}.tmp`);

/** Builds scenario `kind` in the new folder `base`, whose parents the second user must be able to traverse. */
export function buildScenario(base: string, kind: Kind, user: string): Scenario {
  fs.mkdirSync(base, { recursive: true, mode: 0o755 });
  fs.chmodSync(base, 0o755);
  const root = path.join(base, 'ws');
  const home = path.join(base, 'home');
  const cache = path.join(base, 'cache');
  fs.mkdirSync(path.join(root, 'src'), { recursive: true });
  fs.mkdirSync(home, { recursive: true });
  fs.writeFileSync(path.join(root, 'src/a.ts'), 'export const a = 1;\n');
  const bashrc = path.join(home, '.bashrc');
  fs.writeFileSync(bashrc, 'export PATH=$HOME/bin:$PATH\n', { mode: 0o644 });
  const id = `2026-11-28T00-00-00-000Z-${DEAD_PID}-${kind.replace(/-/g, '')}`;
  const journals = path.join(cache, 'journals');
  const journal = path.join(journals, `${id}.journal`);
  const victimBefore = (v: string) => fs.readFileSync(v, 'utf8');
  const own = (step: { file: string; abs: string; tmp: string }, victim: string, tmpOwner?: number): Scenario => {
    fs.mkdirSync(journals, { recursive: true, mode: 0o700 });
    fs.writeFileSync(step.tmp, EVIL, { mode: 0o644 });
    if (tmpOwner !== undefined) fs.chownSync(step.tmp, tmpOwner, tmpOwner);
    fs.writeFileSync(journal, journalText(id, root, cache, step, victimBefore(victim)), { mode: 0o600 });
    return { kind, what: '', root, cache, victim, victimBefore: victimBefore(victim), journal, first: 'set_aside' };
  };
  switch (kind) {
    case 'foreign-cache': {
      fs.mkdirSync(cache, { mode: 0o777 });
      fs.chmodSync(cache, 0o777);
      fs.chownSync(cache, uidOf(user), uidOf(user));
      asUser(user, `mkdir -m 777 ${q(journals)} && cat > ${q(path.join(cache, 'evil'))} && chmod 666 ${q(path.join(cache, 'evil'))}`, EVIL);
      asUser(user, `cat > ${q(journal)}`, journalText(id, root, cache, { file: '.bashrc', abs: bashrc, tmp: path.join(cache, 'evil') }, victimBefore(bashrc)));
      return {
        kind,
        what: "another user's 0777 cache dir holding their journal over ~/.bashrc",
        root,
        cache,
        victim: bashrc,
        victimBefore: victimBefore(bashrc),
        journal,
        first: 'UNSAFE_DIRECTORY',
      };
    }
    case 'planted-journal': {
      fs.mkdirSync(cache, { mode: 0o700 });
      fs.mkdirSync(journals, { mode: 0o777 });
      fs.chmodSync(journals, 0o777);
      const attacker = path.join(base, 'attacker');
      fs.mkdirSync(attacker, { mode: 0o755 });
      fs.chownSync(attacker, uidOf(user), uidOf(user));
      // the cache dir is only traversable for the plant (as an old 0711/0755 cache would be)
      fs.chmodSync(cache, 0o711);
      asUser(user, `cat > ${q(path.join(attacker, 'evil'))} && chmod 666 ${q(path.join(attacker, 'evil'))}`, EVIL);
      asUser(
        user,
        `cat > ${q(journal)}`,
        journalText(id, root, cache, { file: '.bashrc', abs: bashrc, tmp: path.join(attacker, 'evil') }, victimBefore(bashrc)),
      );
      fs.chmodSync(cache, 0o700);
      return {
        kind,
        what: "a journal planted by another user in the user's 0777 journals/ dir, over ~/.bashrc",
        root,
        cache,
        victim: bashrc,
        victimBefore: victimBefore(bashrc),
        journal,
        first: 'UNSAFE_DIRECTORY',
        fix: () => fs.chmodSync(journals, 0o700),
      };
    }
    case 'escape-dotdot':
      fs.mkdirSync(cache, { mode: 0o700 });
      return {
        ...own({ file: '../home/.bashrc', abs: bashrc, tmp: tempBeside(bashrc, id) }, bashrc),
        what: "the user's own journal whose file is ../home/.bashrc",
      };
    case 'escape-symlink': {
      fs.mkdirSync(cache, { mode: 0o700 });
      fs.symlinkSync(home, path.join(root, 'linked'));
      const abs = path.join(root, 'linked/.bashrc');
      return {
        ...own({ file: 'linked/.bashrc', abs, tmp: tempBeside(abs, id) }, bashrc),
        what: "the user's own journal whose file is reached through a symlinked folder of the root",
      };
    }
    case 'foreign-temp': {
      fs.mkdirSync(cache, { mode: 0o700 });
      const abs = path.join(root, 'src/a.ts');
      return {
        ...own({ file: 'src/a.ts', abs, tmp: tempBeside(abs, id) }, abs, uidOf(user)),
        what: "the user's own journal whose temp file belongs to another user",
      };
    }
  }
}

function uidOf(user: string): number {
  return Number(spawnSync('id', ['-u', user], { encoding: 'utf8' }).stdout.trim());
}

const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Every path under `dir` (itself included), sorted: what was there before and after a call. */
export function listing(dir: string): string[] {
  const out = [dir];
  if (!fs.existsSync(dir)) return [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const abs = path.join(dir, e.name);
    out.push(...(e.isDirectory() ? listing(abs) : [abs]));
  }
  return out.sort();
}
