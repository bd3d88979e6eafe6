/**
 * git as a reader: every git command lspgate runs goes through `runGit` (a unit test greps src for
 * any other spawn of git). A repository is untrusted input, and git executes what its config
 * names, so each command runs with:
 * - fixed overrides on the command line: `core.fsmonitor=false` (a hook program run by `status`,
 *   `diff` and `ls-files`), `core.hooksPath=/dev/null` (clone's post-checkout), `core.pager=cat`
 *   with `--no-pager`, no auto gc or maintenance, no signature checks, no submodule recursion, and
 *   the ext:: transport refused;
 * - the repository's own filter drivers blanked: `.gitattributes` names a driver (`filter=x`) and the
 *   repository's config defines `filter.x.clean` / `smudge` / `process`, which `status` and `diff`
 *   run on a stat-dirty file. The names are the repository's choice, so before a command that may
 *   filter, its config is listed (`git config --list --includes --show-scope`, which executes
 *   nothing and follows `include.path` / `includeIf` as the command would) and each local driver is
 *   set to the empty command for that one command (through GIT_CONFIG_COUNT: a driver name may hold
 *   `=`, which `-c` cannot carry);
 * - `--no-ext-diff --no-textconv --ignore-submodules=all` added to every `diff` (`diff.external`,
 *   `diff.<x>.command`, textconv drivers, and a submodule's own config, which a nested `git status`
 *   would read), `--ignore-submodules=all` to `status`; blobs are read with `cat-file blob`, which
 *   never runs textconv or filters;
 * - an environment without prompts (GIT_TERMINAL_PROMPT=0, askpass programs empty), pager, system
 *   config (GIT_CONFIG_NOSYSTEM: the user's global config stays, it is the user's choice), optional
 *   index writes (GIT_OPTIONAL_LOCKS=0: a reader does not rewrite `.git/index`), and without the
 *   caller's GIT_DIR-like variables (a daemon started from a git hook would read another repository).
 * Keys that run programs only for network or write commands (`core.sshCommand`, `core.askPass`,
 * `credential.helper`, `core.editor`, `uploadpack.packObjectsHook`, `remote.*.uploadpack`) are never
 * read from a repository here: lspgate's only network command is a clone, whose new repository's
 * config is git's own.
 */
import { type ProgramResult, runProgram } from './run-program.js';

export type GitResult = ProgramResult;

export interface GitOptions {
  /** The working directory (the repository, or where a clone starts). */
  cwd?: string | undefined;
  timeout?: number;
  maxBuffer?: number;
  signal?: AbortSignal | undefined;
  /** Extra environment (e.g. clone's GIT_ALLOW_PROTOCOL). */
  env?: Record<string, string>;
  /** Run under the caller's watchdog: `wrap` turns git's argv into the watchdog's (see run-program's `watched`). */
  wrap?: (file: string, args: string[]) => { file: string; args: string[] };
}

/** Config set on the command line of every git command; later `-c` wins over every config file. */
export const GIT_FIXED_CONFIG: readonly string[] = [
  'core.fsmonitor=false',
  'core.hooksPath=/dev/null',
  'core.pager=cat',
  'gc.auto=0',
  'maintenance.auto=false',
  'log.showSignature=false',
  'submodule.recurse=false',
  'protocol.ext.allow=never',
];

/** Flags put right after the subcommand's name. */
const SUBCOMMAND_FLAGS: Record<string, string[]> = {
  diff: ['--no-ext-diff', '--no-textconv', '--ignore-submodules=all'],
  status: ['--ignore-submodules=all'],
};

/** Subcommands that never run a filter driver: no config scan needed before them. */
const NEVER_FILTERS = new Set(['rev-parse', 'cat-file', 'config', 'clone', 'version']);

/** Variables that point git at another repository, index or object store than the working directory's. */
const DROPPED_ENV =
  /^GIT_(DIR|WORK_TREE|INDEX_FILE|OBJECT_DIRECTORY|ALTERNATE_OBJECT_DIRECTORIES|COMMON_DIR|NAMESPACE|CONFIG|CONFIG_SYSTEM|EXTERNAL_DIFF|PAGER|EDITOR|SEQUENCE_EDITOR)$/;

const SAFE_ENV: Record<string, string> = {
  GIT_TERMINAL_PROMPT: '0',
  // empty, not unset: an unset GIT_ASKPASS falls back to core.askPass, an empty one to no program at all
  GIT_ASKPASS: '',
  SSH_ASKPASS: '',
  GCM_INTERACTIVE: 'never',
  GIT_PAGER: 'cat',
  PAGER: 'cat',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_OPTIONAL_LOCKS: '0',
  GIT_EDITOR: 'true',
};

const DRIVER_KEY = /^filter\.(.+)\.(clean|smudge|process|required)$/s;

/**
 * Overrides for the filter drivers the repository's config defines (scopes local and worktree,
 * included files counted as their includer's): each command blanked, `required` off so a blank
 * filter is no failure. Pairs of key and value.
 */
export function driverOverrides(configList: string): [string, string][] {
  const drivers = new Set<string>();
  const fields = configList.split('\0');
  // `--show-scope -z`: scope NUL key LF value NUL, repeated
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const scope = fields[i]!;
    const entry = fields[i + 1]!;
    if (scope !== 'local' && scope !== 'worktree') continue;
    const nl = entry.indexOf('\n');
    const key = nl < 0 ? entry : entry.slice(0, nl);
    const m = DRIVER_KEY.exec(key);
    if (m) drivers.add(m[1]!);
  }
  const out: [string, string][] = [];
  for (const d of drivers) {
    for (const cmd of ['clean', 'smudge', 'process']) out.push([`filter.${d}.${cmd}`, '']);
    out.push([`filter.${d}.required`, 'false']);
  }
  return out;
}

function baseEnv(extra: Record<string, string> | undefined): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (typeof v === 'string' && !DROPPED_ENV.test(k)) env[k] = v;
  return { ...env, ...SAFE_ENV, ...extra };
}

/** `env` with `pairs` appended to the GIT_CONFIG_COUNT list (kept after any the user's environment set). */
function withConfigPairs(env: Record<string, string>, pairs: [string, string][]): Record<string, string> {
  if (pairs.length === 0) return env;
  const start = Number(env.GIT_CONFIG_COUNT ?? '0') || 0;
  const out = { ...env };
  pairs.forEach(([k, v], i) => {
    out[`GIT_CONFIG_KEY_${start + i}`] = k;
    out[`GIT_CONFIG_VALUE_${start + i}`] = v;
  });
  out.GIT_CONFIG_COUNT = String(start + pairs.length);
  return out;
}

/** The argv after `git`: fixed config, no pager, the subcommand and its safety flags, the rest. */
export function gitArgv(args: string[]): string[] {
  const [sub, ...rest] = args;
  if (sub === undefined) throw new Error('runGit: no subcommand');
  return ['--no-pager', ...GIT_FIXED_CONFIG.flatMap((c) => ['-c', c]), sub, ...(SUBCOMMAND_FLAGS[sub] ?? []), ...rest];
}

async function spawnGit(args: string[], env: Record<string, string>, opts: GitOptions): Promise<GitResult> {
  const argv = opts.wrap ? opts.wrap('git', gitArgv(args)) : { file: 'git', args: gitArgv(args) };
  return runProgram(argv.file, argv.args, {
    cwd: opts.cwd,
    env,
    replaceEnv: true,
    timeout: opts.timeout,
    maxBuffer: opts.maxBuffer,
    signal: opts.signal,
    watched: opts.wrap !== undefined,
  });
}

/**
 * Runs `git <args>` as a reader (see above); never throws for a failure. A config listing that
 * fails fails the command: git would not have read that config any better.
 */
export async function runGit(args: string[], opts: GitOptions = {}): Promise<GitResult> {
  const env = baseEnv(opts.env);
  if (NEVER_FILTERS.has(args[0] ?? '')) return spawnGit(args, env, opts);
  const list = await spawnGit(['config', '--list', '--includes', '--show-scope', '-z'], env, { ...opts, maxBuffer: 16 * 1024 * 1024 });
  // exit 1 with no output: a repository (or none) with no config entries at all
  if (list.exitCode !== 0 && !(list.exitCode === 1 && list.stdout === '' && list.stderr === '')) return list;
  return spawnGit(args, withConfigPairs(env, driverOverrides(list.stdout)), opts);
}

/** The commit HEAD names in `root`, or '' (no repository, no commit yet, git missing). */
export async function headCommit(root: string): Promise<string> {
  const r = await runGit(['rev-parse', 'HEAD'], { cwd: root, timeout: 5000 });
  return r.exitCode === 0 ? String(r.stdout).trim() : '';
}
