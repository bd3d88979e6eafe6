/**
 * Whether this `lspgate` call may take the thin path through the daemon (node builtins only).
 * Only calls the daemon serves exactly as this process would: daemon mode auto or
 * require, no --servers, no per-workspace config (`<root>/.lspgate/servers.json|config.json` is
 * read per process), and `mcp` (stdio, flags --root --daemon --tools only), `sidecar` (--root
 * --daemon only) or a one-shot operation. Anything else — and anything odd — is the full path's.
 * A bad `mcp --tools` is answered here (tools.ts): the full CLI's error, no daemon reached.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

import { toolsFlagError } from './tools.js';

/** Commands the CLI runs itself: never forwarded as an operation. */
const LOCAL = new Set([
  'mcp',
  'sidecar',
  'repl',
  'tour',
  'demo',
  'servers',
  'daemon',
  'recover',
  'publish',
  'trust',
  'untrust',
  'help',
  'version',
  '--help',
  '-h',
  '--version',
  '-v',
]);

export type ThinPlan =
  | { kind: 'relay'; relay: 'mcp' | 'sidecar'; root: string; tools?: string }
  | { kind: 'cli'; root: string; argv: string[] }
  /** The full CLI's usage error, said without a daemon (a bad `mcp --tools`). */
  | { kind: 'usage'; stderr: string };

interface Scan {
  values: Map<string, string[]>;
  flags: Set<string>;
  positionals: number;
}

/** Options with a value (`--x v` or `--x=v`) are `valued`; every other `--x` is a flag. */
function scan(args: string[], valued: ReadonlySet<string>): Scan {
  const out: Scan = { values: new Map(), flags: new Set(), positionals: 0 };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      out.positionals += args.length - i - 1;
      break;
    }
    if (!a.startsWith('-') || a === '-') {
      out.positionals++;
      continue;
    }
    const eq = a.indexOf('=');
    const name = a.slice(0, eq < 0 ? undefined : eq).replace(/^-+/, '');
    if (!valued.has(name)) {
      out.flags.add(eq < 0 ? name : `${name}=`);
      continue;
    }
    const value = eq >= 0 ? a.slice(eq + 1) : args[++i];
    if (value === undefined) out.flags.add(`${name}:missing`);
    else out.values.set(name, [...(out.values.get(name) ?? []), value]);
  }
  return out;
}

const one = (s: Scan, name: string): string | undefined => s.values.get(name)?.at(-1);

function perProcessConfig(root: string): boolean {
  return ['servers.json', 'config.json'].some((f) => existsSync(path.join(root, '.lspgate', f)));
}

function modeAllows(s: Scan, env: NodeJS.ProcessEnv): boolean {
  const mode = one(s, 'daemon') ?? (env.LSPGATE_DAEMON || 'auto');
  // LSPGATE_INDEX (like --index) is served by this process's own gateway; --flow-corpus and --policy set this
  // process's environment (the full path): a daemon then answers only under the same
  return (
    (mode === 'auto' || mode === 'require') &&
    (s.values.get('daemon')?.length ?? 0) <= 1 &&
    !s.values.has('servers') &&
    !s.values.has('flow-corpus') &&
    !s.values.has('policy') &&
    !env.LSPGATE_INDEX
  );
}

/** The thin path for `argv`, or undefined: the full CLI handles it. */
export function thinPlan(argv: string[], env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): ThinPlan | undefined {
  const [cmd, ...rest] = argv;
  if (cmd === undefined || cmd.startsWith('-')) return undefined;
  if (cmd === 'mcp' || cmd === 'sidecar') {
    const s = scan(rest, new Set(['root', 'daemon', 'tools', 'servers']));
    if (s.flags.size || s.positionals || !modeAllows(s, env)) return undefined;
    if ((s.values.get('root')?.length ?? 0) > 1 || (s.values.get('tools')?.length ?? 0) > 1) return undefined;
    if (cmd === 'sidecar' && s.values.has('tools')) return undefined;
    const root = path.resolve(cwd, one(s, 'root') ?? '.');
    if (perProcessConfig(root)) return undefined;
    const tools = one(s, 'tools');
    const bad = tools === undefined ? undefined : toolsFlagError(tools);
    if (bad !== undefined) return { kind: 'usage', stderr: bad };
    return { kind: 'relay', relay: cmd, root, ...(tools !== undefined ? { tools } : {}) };
  }
  if (LOCAL.has(cmd)) return undefined;
  // An operation's own options are the daemon's to parse; only the common ones matter here.
  const s = scan(rest, new Set(['root', 'daemon', 'servers', 'index', 'flow-corpus', 'policy']));
  // --index is this process's own gateway (full-main.ts), never the daemon's
  if (!modeAllows(s, env) || s.values.has('index')) return undefined;
  const root = path.resolve(cwd, one(s, 'root') ?? '.');
  if (perProcessConfig(root)) return undefined;
  return { kind: 'cli', root, argv };
}
