/**
 * One gopls view over the Go modules under a root. gopls's zero-config mode makes one view per
 * module of each *open* file, and a request is answered from the view of the file it names:
 * references to a function of module `alpha` asked in `alpha` miss the callers in module `beta`
 * (which uses alpha through a `replace`), and a file no one opened yet has no view at all (an
 * empty definition). A root with its own go.mod that requires, replaces or vendors nested modules
 * is the same: its view resolves them to replaced or vendored copies, so references of a nested
 * type found only the nested module's users and definitions landed in vendor/. Workspace folders
 * per module do not help — gopls makes one view per folder, and references still stay inside one.
 * A go.work naming every module is what the go command and gopls know as "these modules together":
 * lspgate writes one into its private cache (never into the repository) and points the server's
 * GOWORK at it. It is used only when the go command accepts it with the server's own environment;
 * a module the local toolchain refuses (a `go` line newer than it, with GOTOOLCHAIN=local) is left
 * out, and conflicting replacements, or a vendored dependency that workspace mode (which never
 * reads a module's vendor/) cannot find in the module cache, fall back to per-module views.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';

import { goBuildConstraint } from '../../go/no-package.js';
import type { ServerEnvContext } from '../../types.js';

/** Directories the go command itself never treats as part of a module tree (`go help packages`). */
function skipped(name: string): boolean {
  return name.startsWith('.') || name.startsWith('_') || name === 'testdata' || name === 'vendor' || name === 'node_modules';
}

/** Bounds of the walk for go.mod files: a huge tree is not walked whole at every server start. */
const MAX_DEPTH = 6;
const MAX_DIRS = 20_000;
/** `go list -m` reads go.work and the go.mod files only; it is quick unless the machine is starved. */
const CHECK_MS = 20_000;

export interface ModuleScan {
  /** Absolute directories holding a go.mod, sorted. */
  modules: string[];
  /** True when the walk stopped at MAX_DIRS. */
  truncated: boolean;
}

/** Directories with a go.mod below `root` (not `root` itself), without following symlinks. */
export async function findModules(root: string): Promise<ModuleScan> {
  const modules: string[] = [];
  let queue: string[] = [root];
  let visited = 0;
  for (let depth = 0; depth <= MAX_DEPTH && queue.length; depth++) {
    const next: string[] = [];
    for (const dir of queue) {
      if (++visited > MAX_DIRS) return { modules: modules.sort(), truncated: true };
      const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
      if (dir !== root && entries.some((e) => e.isFile() && e.name === 'go.mod')) modules.push(dir);
      for (const e of entries) if (e.isDirectory() && !skipped(e.name)) next.push(path.join(dir, e.name));
    }
    queue = next;
  }
  return { modules: modules.sort(), truncated: false };
}

/** The `go` directive of a go.mod (`go 1.22` / `go 1.22.3`), undefined when it has none. */
export function goDirective(gomod: string): string | undefined {
  for (const line of gomod.split('\n')) {
    const words = line
      .replace(/\/\/.*$/, '')
      .trim()
      .split(/\s+/);
    if (words.length === 2 && words[0] === 'go') return words[1];
  }
  return undefined;
}

/** Orders Go versions (1.21 < 1.21.3 < 1.22rc1 < 1.22); numbers compared, a pre-release below its release. */
export function compareGoVersions(a: string, b: string): number {
  const parts = (v: string) => {
    const m = /^(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:(rc|beta)(\d+))?/.exec(v);
    if (!m) return [0, 0, 0, 0];
    const pre = m[4] ? Number(m[5] ?? 0) - 1000 : 0;
    return [Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0), pre];
  };
  const x = parts(a);
  const y = parts(b);
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return 0;
}

/** The go.work text for `modules`: the highest `go` line among them, each path quoted (a Go string literal). */
export function goWorkText(modules: { dir: string; go?: string }[]): string {
  const versions = modules.map((m) => m.go).filter((v): v is string => !!v);
  const go = versions.sort(compareGoVersions).pop() ?? '1.18';
  return `go ${go}\n\nuse (\n${modules.map((m) => `\t${JSON.stringify(m.dir)}\n`).join('')})\n`;
}

/** Runs the go command with the server's environment: its output, or the reason it failed. */
function goCommand(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ out: string } | { error: string }> {
  return new Promise((resolve) => {
    execFile('go', args, { cwd, env, timeout: CHECK_MS, maxBuffer: 1 << 20 }, (err, out, stderr) => {
      resolve(err ? { error: (String(stderr).trim() || err.message).slice(0, 500) } : { out: String(out).trim() });
    });
  });
}

/** Module paths a root's vendor/modules.txt lists (`# example.com/x v1.2.3`), none when it vendors nothing. */
export function vendoredModules(modulesTxt: string): string[] {
  const out: string[] = [];
  for (const line of modulesTxt.split('\n')) {
    const m = /^# (\S+)(?: \S+)?(?: =>.*)?$/.exec(line);
    if (m && !out.includes(m[1]!)) out.push(m[1]!);
  }
  return out;
}

/** The `module` line of a go.mod. */
function modulePath(gomod: string): string | undefined {
  return /^module\s+"?([^\s"]+)"?/m.exec(gomod)?.[1];
}

/**
 * Why workspace mode cannot stand in for the root's vendor/: the modules it vendors (other than the
 * workspace's own) whose source the module cache lacks; workspace mode reads only the cache. The
 * error of the go command when it cannot load the module graph at all.
 */
async function vendorGaps(root: string, workspacePaths: string[], env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const listed = await fs.readFile(path.join(root, 'vendor', 'modules.txt'), 'utf8').catch(() => '');
  const vendored = vendoredModules(listed).filter((m) => !workspacePaths.includes(m));
  if (!vendored.length) return undefined;
  const all = await goCommand(['list', '-m', '-e', '-f', '{{.Path}}\t{{.Dir}}', 'all'], root, env);
  if ('error' in all) return all.error;
  const dirs = new Map(all.out.split('\n').map((l) => l.split('\t') as [string, string | undefined]));
  const missing = vendored.filter((m) => !dirs.get(m));
  return missing.length ? `vendor/ holds modules the module cache lacks (${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', …' : ''})` : undefined;
}

/**
 * GOWORK for a gopls session at `root`: a go.work in lspgate's cache listing the modules below a
 * root that has no go.work — with the root itself when it has a go.mod (one nested module is then
 * enough), else when there are two or more. Nothing when the user set GOWORK (their choice, `off`
 * included) or the go command refuses the file.
 */
export async function goWorkspaceEnv(root: string, ctx: ServerEnvContext): Promise<Record<string, string>> {
  if (ctx.env.GOWORK) return {};
  if (existsSync(path.join(root, 'go.work'))) return {};
  const rootModule = existsSync(path.join(root, 'go.mod'));
  const scan = await findModules(root);
  if (scan.truncated) ctx.log(`stopped looking for nested go.mod files after ${MAX_DIRS} directories under ${root}`);
  const dirs = rootModule ? [root, ...scan.modules] : scan.modules;
  if (dirs.length < 2) return {};
  const found = await Promise.all(
    dirs.map(async (dir) => {
      const gomod = await fs.readFile(path.join(dir, 'go.mod'), 'utf8').catch(() => '');
      return { dir, go: goDirective(gomod), module: modulePath(gomod) };
    }),
  );
  // With GOTOOLCHAIN=local the go command refuses a go.work whose `go` line is newer than itself, so
  // one such module would take every other out of the workspace: it is left out (it fails alone,
  // with or without a go.work) and the others are served together.
  const version = await goCommand(['env', 'GOVERSION'], root, { ...ctx.env, GOWORK: 'off' });
  const local = 'out' in version ? version.out.replace(/^go/, '') : undefined;
  const modules = local ? found.filter((m) => !m.go || compareGoVersions(m.go, local) <= 0) : found;
  const tooNew = found.filter((m) => !modules.includes(m));
  if (tooNew.length)
    ctx.log(
      `left out of the Go workspace (their go line is newer than the local go ${local}): ${tooNew.map((m) => `${path.relative(root, m.dir) || '.'} (go ${m.go})`).join(', ')}`,
    );
  if (modules.length < 2 || (rootModule && !modules.some((m) => m.dir === root))) return {};
  const dir = path.join(ctx.cacheDir, 'go-work', createHash('sha256').update(root).digest('hex').slice(0, 16));
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, 'go.work');
  await fs.writeFile(file, goWorkText(modules), { mode: 0o600 });
  const env = { ...ctx.env, GOWORK: file };
  const check = await goCommand(['list', '-m'], root, env);
  const gap =
    'error' in check
      ? check.error
      : rootModule
        ? await vendorGaps(
            root,
            modules.map((m) => m.module ?? ''),
            env,
          )
        : undefined;
  const what = rootModule ? `the Go module at ${root} and ${modules.length - 1} nested in it` : `${modules.length} Go modules under ${root} without a go.work`;
  if (gap) {
    ctx.log(`${what}: the go command refuses them as one workspace (${gap}); each gets its own view when one of its files is opened`);
    return {};
  }
  ctx.log(`${what}: serving them as one workspace (GOWORK=${file})`);
  return { GOWORK: file };
}

/**
 * Why gopls has no package for a file, when lspgate can tell: gopls answers "no package metadata
 * for file" when `go list` refused the file's module, and the usual reason on a machine that runs
 * the local toolchain only is a `go` line newer than it. gopls sends every failure with code 0,
 * so its text is the only sign of which one it is. Undefined for any other failure.
 */
export async function explainGoFailure(
  lspMessage: string,
  absPath: string,
  ctx: ServerEnvContext & { root: string },
): Promise<{ message: string; details: Record<string, unknown> } | undefined> {
  if (!lspMessage.startsWith('no package metadata for file')) return undefined;
  const file = path.relative(ctx.root, absPath);
  let dir = path.dirname(absPath);
  while (!existsSync(path.join(dir, 'go.mod'))) {
    const parent = path.dirname(dir);
    if (dir === ctx.root || parent === dir || !dir.startsWith(ctx.root)) return excludedByBuild(file, absPath) ?? outsideModules(file);
    dir = parent;
  }
  const requires = goDirective(await fs.readFile(path.join(dir, 'go.mod'), 'utf8').catch(() => ''));
  const version = await goCommand(['env', 'GOVERSION'], dir, { ...ctx.env, GOWORK: 'off' });
  const local = 'out' in version ? version.out.replace(/^go/, '') : undefined;
  const module = path.relative(ctx.root, dir) || '.';
  if (!requires || !local || compareGoVersions(requires, local) <= 0) return excludedByBuild(file, absPath);
  return {
    message: `the Go module at ${module} needs Go ${requires} (its go.mod's go line) and the local go is ${local}: the server runs with GOTOOLCHAIN=local and GOPROXY=off and never downloads a toolchain, so it cannot load that module. Install Go ${requires} or newer on the server's PATH.`,
    details: { module, requires, local },
  };
}

/** A file whose build constraint leaves it out of the server's build: what gopls cannot answer, and how to include it. */
async function excludedByBuild(file: string, absPath: string): Promise<{ message: string; details: Record<string, unknown> } | undefined> {
  const text = await fs.readFile(absPath, 'utf8').catch(() => '');
  const found = goBuildConstraint(absPath, text);
  if (!found) return undefined;
  return {
    message:
      `gopls builds no package with ${file}: it is left out of the server's build (its GOOS, GOARCH, Go version ` +
      `and tags) by ${found.by}, so gopls has no definition, references, hover or diagnostics for it. ` +
      `Its outline still answers from the parse tree; to have gopls read it, set the tags in gopls's buildFlags ` +
      `("settings": {"gopls": {"buildFlags": ["-tags=…"]}} in your servers.json) or GOOS/GOARCH in the environment lspgate starts from.`,
    details: { file, reason: 'excluded_by_build_constraint', constraint: found.constraint },
  };
}

/** A Go file under no go.mod of the workspace (and no constraint to blame): gopls has no module to load it from. */
function outsideModules(file: string): { message: string; details: Record<string, unknown> } {
  return {
    message: `gopls builds no package with ${file}: no go.mod above it inside the workspace, so no module holds it. Open the module's own folder, or add a go.mod.`,
    details: { file, reason: 'outside_every_module' },
  };
}
