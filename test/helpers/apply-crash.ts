/**
 * Killing the daemon in the middle of a multi-file apply, for the crash tests and bench/kill-apply.ts:
 * a TypeScript project where one function is used by every file (a rename touches them all), the
 * expected bytes of every file before and after the rename, and a watcher on the cache's journal
 * directory that SIGKILLs the journal's owner (the daemon) at a chosen point of the apply — when its
 * journal appears, when it is `staged`, or after a given number of `renamed` records. The watcher
 * reacts to inotify events (fs.watch), not to a timer.
 */
import fs from 'node:fs';
import path from 'node:path';

export const OLD_NAME = 'sharedTick';
export const NEW_NAME = 'sharedTock';

export interface RenameRepo {
  root: string;
  /** Workspace-relative path → content before and after renaming OLD_NAME to NEW_NAME. */
  before: Map<string, string>;
  after: Map<string, string>;
}

/** Adds to `root` a `src/shared/tick.ts` and a use of it in each of `files` (relative paths of .ts files). */
export function addSharedUse(root: string, files: string[]): RenameRepo {
  const shared = 'src/shared/tick.ts';
  fs.mkdirSync(path.join(root, 'src/shared'), { recursive: true });
  fs.writeFileSync(path.join(root, shared), `/** Used by every file. */\nexport function ${OLD_NAME}(n: number): number {\n  return n + 1;\n}\n`);
  for (const [i, rel] of files.entries()) {
    const abs = path.join(root, rel);
    let imp = path.posix.relative(path.posix.dirname(rel), 'src/shared/tick.js');
    if (!imp.startsWith('.')) imp = `./${imp}`;
    fs.writeFileSync(abs, `import { ${OLD_NAME} } from '${imp}';\n${fs.readFileSync(abs, 'utf8')}\nexport const tick${i} = ${OLD_NAME}(${i});\n`);
  }
  const before = new Map<string, string>();
  const after = new Map<string, string>();
  for (const rel of [shared, ...files]) {
    const text = fs.readFileSync(path.join(root, rel), 'utf8');
    before.set(rel, text);
    after.set(rel, text.replaceAll(OLD_NAME, NEW_NAME));
  }
  return { root, before, after };
}

/** A small project of `n` files using the shared function (the tests'; the bench uses gen-repo). */
export function writeRenameRepo(root: string, n: number): RenameRepo {
  const files: string[] = [];
  for (let i = 0; i < n; i++) {
    const rel = `src/m${i % 10}/file${i}.ts`;
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), `/** Module ${i}. */\nexport function work${i}(x: number): number {\n  return x * ${i};\n}\n`);
    files.push(rel);
  }
  fs.writeFileSync(
    path.join(root, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { strict: true, target: 'es2022', module: 'nodenext', noEmit: true }, include: ['src/**/*.ts'] }),
  );
  fs.writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'rename-repo', private: true, type: 'module' }));
  return addSharedUse(root, files);
}

/** 'before', 'after', or the files that are neither (a torn tree), plus temp files left anywhere under the root. */
export function treeVerdict(repo: RenameRepo): { state: 'before' | 'after' | 'mixed'; mixed: string[]; temps: string[] } {
  let before = 0;
  let after = 0;
  const mixed: string[] = [];
  for (const [rel, old] of repo.before) {
    const now = fs.readFileSync(path.join(repo.root, rel), 'utf8');
    if (now === old) before++;
    else if (now === repo.after.get(rel)) after++;
    else mixed.push(rel);
  }
  const temps: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(path.join(d, e.name));
      else if (e.name.endsWith('.tmp')) temps.push(path.relative(repo.root, path.join(d, e.name)));
    }
  };
  walk(repo.root);
  const total = repo.before.size;
  const state = before === total ? 'before' : after === total ? 'after' : 'mixed';
  if (state === 'mixed' && !mixed.length) mixed.push(`${before} file(s) old, ${after} new`);
  return { state, mixed, temps };
}

export type KillPoint = { at: 'created' } | { at: 'staged' } | { at: 'renamed'; count: number };

export interface Killer {
  /** Resolves with the killed pid and how far the journal had come, once the kill was sent. */
  killed: Promise<{ pid: number; records: string[] }>;
  close(): void;
}

/**
 * Watches `<cacheDir>/journals` (created here, 0700 as lspgate makes it) and SIGKILLs the owner of the
 * first journal that reaches `point`.
 */
export function killAtJournal(cacheDir: string, point: KillPoint): Killer {
  const dir = path.join(cacheDir, 'journals');
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  let resolve!: (v: { pid: number; records: string[] }) => void;
  const killed = new Promise<{ pid: number; records: string[] }>((r) => (resolve = r));
  let done = false;
  const check = (name: string | null) => {
    if (done || !name?.endsWith('.journal')) return;
    let text: string;
    try {
      text = fs.readFileSync(path.join(dir, name), 'utf8');
    } catch {
      return;
    }
    const records = text
      .split('\n')
      .filter(Boolean)
      .map((l) => (/"t":"(\w+)"/.exec(l) ?? [])[1] ?? '?');
    const pid = Number(/"pid":(\d+)/.exec(text)?.[1]);
    if (!pid) return;
    const reached =
      point.at === 'created' || (point.at === 'staged' ? records.includes('staged') : records.filter((r) => r === 'renamed').length >= point.count);
    if (!reached) return;
    done = true;
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
    resolve({ pid, records });
  };
  const watcher = fs.watch(dir, (_event, name) => check(typeof name === 'string' ? name : null));
  return { killed, close: () => watcher.close() };
}
