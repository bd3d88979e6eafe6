/**
 * A full or read-only disk answers a code, says what was being written, and loses nothing:
 * an apply (`tag_elements` writes) into a workspace on a read-only mount answers READ_ONLY, on a full
 * file system DISK_FULL, and the tree is byte for byte as it was with no temp file left; with a
 * read-only cache the apply answers READ_ONLY (its journal could not be written) and a catalog that
 * could not be saved is said in `_meta.warnings` instead of silently. The file systems are small
 * tmpfs mounts made by the test: chmod does not stop root, a mount does. Without root (or where
 * mount is refused) the tests are skipped and say why on stderr.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { assertBuilt, runCli } from '../helpers/spawn.js';

let tmp: string;
const mounts: string[] = [];

function mount(dir: string, options: string): void {
  fs.mkdirSync(dir, { recursive: true });
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', dir], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`mount tmpfs on ${dir}: ${r.stderr}`);
  mounts.push(dir);
}

function remountReadOnly(dir: string): void {
  const r = spawnSync('mount', ['-o', 'remount,ro', dir], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`remount ro ${dir}: ${r.stderr}`);
}

/** Why these tests cannot run here, or undefined: they need root and a mount that works. */
function cannotMount(): string | undefined {
  if (process.getuid?.() !== 0) return 'not root: a tmpfs cannot be mounted (and chmod does not stop root)';
  const probe = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-mount-probe-'));
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=16k', 'tmpfs', probe], { encoding: 'utf8' });
  if (r.status === 0) spawnSync('umount', [probe]);
  fs.rmdirSync(probe);
  return r.status === 0 ? undefined : `mount -t tmpfs refused: ${r.stderr.trim()}`;
}

const why = cannotMount();
if (why) process.stderr.write(`disk-errors: SKIPPED — ${why}\n`);
const describeMounted = why ? describe.skip : describe;

/** A small TypeScript workspace in `root` (tag_elements tags its top-level declarations). */
function writeWorkspace(root: string): void {
  fs.mkdirSync(path.join(root, 'src'), { recursive: true });
  fs.writeFileSync(path.join(root, 'src/a.ts'), 'export function greet(n: string): string {\n  return n;\n}\n');
  fs.writeFileSync(path.join(root, 'src/b.ts'), "import { greet } from './a';\nexport class Greeter {\n  hi(): string {\n    return greet('x');\n  }\n}\n");
}

/** Every path under `dir` with its bytes: the tree, compared before and after. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const abs = path.join(d, e.name);
      if (e.isDirectory()) walk(abs);
      else out[path.relative(dir, abs)] = e.name === 'filler' ? `${fs.statSync(abs).size} bytes` : fs.readFileSync(abs, 'utf8');
    }
  };
  walk(dir);
  return out;
}

/** Fills the file system of `dir` to the last byte. */
function fill(dir: string): void {
  const fd = fs.openSync(path.join(dir, 'filler'), 'w');
  const chunk = Buffer.alloc(4096, 0x61);
  try {
    for (;;) fs.writeSync(fd, chunk);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOSPC') throw e;
  } finally {
    fs.closeSync(fd);
  }
}

const tagApply = (root: string, cache: string, env: Record<string, string> = {}) =>
  runCli(['tag_elements', '--root', root, '--path', 'src', '--no-dry_run', '--json'], { cacheDir: cache, cwd: tmp, env: { LSPGATE_DAEMON: 'off', ...env } });

beforeAll(() => {
  assertBuilt();
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-disk-')));
});
afterAll(() => {
  for (const m of mounts.reverse()) spawnSync('umount', ['-l', m]);
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

/** Every file under `dir` with its size: what a full disk left behind. */
function leftovers(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true })
    .map(String)
    .filter((n) => /\.journal$|\.tmp$/.test(n))
    .map((n) => `${n} (${fs.statSync(path.join(dir, n)).size} bytes)`);
}

describeMounted('a full or read-only disk', () => {
  it('a full cache: the answer says the catalog could not be saved; no empty journal or temp file is left', { timeout: 240_000 }, async () => {
    const rb = path.join(tmp, 'ws-full-cache');
    fs.mkdirSync(path.join(rb, 'lib'), { recursive: true });
    fs.writeFileSync(path.join(rb, 'lib/greeter.rb'), 'class Greeter\n  def greet(n)\n    n\n  end\nend\n');
    const cache = path.join(tmp, 'full-cache');
    mount(cache, 'size=256k,mode=0700');
    fill(cache);
    const env = { LSPGATE_DAEMON: 'off' };
    for (let i = 0; i < 2; i++) {
      const r = await runCli(['search_code', '--root', rb, '--query', 'greet', '--json'], { cacheDir: cache, cwd: tmp, env });
      expect(r.code, r.stderr).toBe(0);
      const warnings = (JSON.parse(r.stdout) as { _meta: { warnings?: string[] } })._meta.warnings ?? [];
      expect(warnings.join('\n')).toMatch(/the catalog could not be saved to .*DISK_FULL/);
    }
    const r = await tagApply(rb, cache);
    expect(r.code).not.toBe(0);
    expect(leftovers(cache)).toEqual([]);
  });

  it('an apply into a workspace on a read-only mount answers READ_ONLY; the tree is as it was', { timeout: 180_000 }, async () => {
    const root = path.join(tmp, 'ro-root');
    mount(root, 'size=1m,mode=0755');
    writeWorkspace(root);
    remountReadOnly(root);
    const before = tree(root);
    const r = await tagApply(root, path.join(tmp, 'cache-ro-root'));
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/READ_ONLY: writing the edit of \d file\(s\).*read-only \(EROFS\).*every file of the workspace is as it was/);
    expect(tree(root)).toEqual(before);
  });

  it('an apply into a workspace on a full file system answers DISK_FULL; the tree is as it was', { timeout: 180_000 }, async () => {
    const root = path.join(tmp, 'full-root');
    mount(root, 'size=256k,mode=0755');
    writeWorkspace(root);
    fill(root);
    const before = tree(root);
    const r = await tagApply(root, path.join(tmp, 'cache-full-root'));
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/DISK_FULL: writing the edit of \d file\(s\).*full \(ENOSPC\).*every file of the workspace is as it was/);
    expect(tree(root)).toEqual(before);
  });

  it('a read-only cache: the apply answers READ_ONLY, and a catalog that could not be saved is a warning', { timeout: 240_000 }, async () => {
    const root = path.join(tmp, 'ws-ro-cache');
    writeWorkspace(root);
    // Ruby has a grammar and no server here: its catalog is built (and saved) within the first call
    const rb = path.join(tmp, 'ws-ro-cache-rb');
    fs.mkdirSync(path.join(rb, 'lib'), { recursive: true });
    fs.writeFileSync(path.join(rb, 'lib/greeter.rb'), 'class Greeter\n  def greet(n)\n    n\n  end\nend\n');
    const cache = path.join(tmp, 'ro-cache');
    mount(cache, 'size=1m,mode=0700');
    remountReadOnly(cache);
    const runtime = fs.mkdtempSync(path.join(tmp, 'run-'));
    // through the daemon: the first answer builds the catalog (its save fails), the next says so
    const env = { LSPGATE_DAEMON: 'require', XDG_RUNTIME_DIR: runtime };
    try {
      const first = await runCli(['search_code', '--root', rb, '--query', 'greet', '--json'], { cacheDir: cache, cwd: tmp, env });
      expect(first.code, first.stderr).toBe(0);
      const second = await runCli(['get_file_tree', '--root', rb, '--json'], { cacheDir: cache, cwd: tmp, env });
      expect(second.code, second.stderr).toBe(0);
      // said in the answer during which the save failed, not only in a later one (or only in the log)
      const warnings = (JSON.parse(first.stdout) as { _meta: { warnings?: string[] } })._meta.warnings ?? [];
      expect(warnings.join('\n')).toMatch(/the catalog could not be saved to .*READ_ONLY: .*read-only \(EROFS\)/);
      const before = tree(root);
      const r = await tagApply(root, cache, env);
      expect(r.code).not.toBe(0);
      // the first write into the cache refuses: the server's private temp dir (a tsserver must start to
      // plan the tags) or, with the server up, the apply journal
      expect(r.stderr).toMatch(
        /READ_ONLY: writing (the apply journal in the cache .*no file of the workspace was touched|\S*ro-cache\/server-tmp .*read-only \(EROFS\))/,
      );
      expect(tree(root)).toEqual(before);
    } finally {
      await runCli(['daemon', 'stop'], { cacheDir: cache, cwd: tmp, env });
    }
  });
});
