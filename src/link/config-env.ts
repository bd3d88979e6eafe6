/**
 * The environment a client sends with its `lspgate/attach` (node builtins only: the thin client
 * loads it), for the daemon to decide whether its answers would be this client's. lspgate's own
 * settings (`LSPGATE_*`, but those about the daemon or this process alone) and the user's
 * servers.json and config.json (found by XDG_CONFIG_HOME and HOME) must be the same. The rest is
 * decided per language server (src/daemon/env-check.ts): which programs it would run — found on
 * PATH, so PATH itself is sent — and the variables its entry says it reads, of which hashes are sent:
 * a PATH with a duplicate entry or an extra directory without server binaries, or a variable no
 * server reads, shares the daemon. Values are hashed (PATH aside); a refusal names variables, never
 * their values.
 */
import { createHash } from 'node:crypto';
import { readFileSync, realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Read by the client or the daemon process itself, not by the settings answers follow. */
const NOT_ANSWER_SETTINGS = new Set([
  'LSPGATE_DAEMON',
  'LSPGATE_DAEMON_IDLE_MS',
  'LSPGATE_DAEMON_SERVER_IDLE_MS',
  'LSPGATE_DAEMON_TRACE_MAX',
  // already in the socket's name: another cache directory is another daemon
  'LSPGATE_CACHE_DIR',
  'LSPGATE_LOG',
  'LSPGATE_V8_FLAGS',
  // where this process keeps its compiled modules, or not, and whether it loads the bundle: never what an answer says
  'LSPGATE_CODE_CACHE',
  'LSPGATE_BUNDLE',
  // lspgate mcp --http only, never through the daemon
  'LSPGATE_TOKEN',
]);

/** The user's config files the daemon reads at start, by the name a refusal gives them. */
export const USER_FILES = ['servers.json', 'config.json'] as const;

export interface AttachEnvironment {
  /** lspgate's own answer settings, name → hash of the value (set, non-empty ones). */
  settings: Record<string, string>;
  /** Every other variable set, name → hash of the value: each server entry names those it reads. */
  variables: Record<string, string>;
  /** PATH itself: where the programs a server runs are found. */
  path: string;
  /** The Node binary (real path) that servers run by Node (`node: true`) would run under. */
  node: string;
  /** `$XDG_CONFIG_HOME/lspgate/<file>` (else `~/.config/…`) → hash of its content, '' when absent. */
  user_files: Record<string, string>;
}

const hash = (value: string | Buffer): string => createHash('sha256').update(value).digest('hex').slice(0, 16);

export function attachEnvironment(env: NodeJS.ProcessEnv = process.env): AttachEnvironment {
  const settings: Record<string, string> = {};
  const variables: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || value === '') continue;
    if (!name.startsWith('LSPGATE_')) variables[name] = hash(value);
    else if (!NOT_ANSWER_SETTINGS.has(name)) settings[name] = hash(value);
  }
  const dir = path.join(env.XDG_CONFIG_HOME || path.join(env.HOME || os.homedir(), '.config'), 'lspgate');
  const user_files: Record<string, string> = {};
  for (const f of USER_FILES) user_files[f] = fileHash(path.join(dir, f), f === 'config.json' ? ['trustedFolders'] : []);
  return { settings, variables, path: env.PATH ?? '', node: realOr(process.execPath), user_files };
}

/** The hash of a variable's value as attachEnvironment makes it (the daemon hashes its entries' own `env`). */
export function valueHash(value: string): string {
  return hash(value);
}

/**
 * `ignore`: keys the daemon does not read. `trustedFolders` applies only to a root's own .lspgate
 * config, which the daemon never reads (such a root runs in its own process): `lspgate trust`
 * must not turn every later client away from a running daemon.
 */
function fileHash(file: string, ignore: string[] = []): string {
  let content: Buffer;
  try {
    content = readFileSync(file);
  } catch {
    return '';
  }
  if (ignore.length) {
    try {
      const parsed = JSON.parse(content.toString('utf8')) as unknown;
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
        const rest = Object.fromEntries(Object.entries(parsed).filter(([k]) => !ignore.includes(k)));
        return hash(JSON.stringify(rest));
      }
    } catch {
      // not JSON: hashed as it is, and the daemon reports it
    }
  }
  return hash(content);
}

function realOr(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

/** The names set in one and not the other, or set to another value; sorted. */
export function envDifference(a: Record<string, string>, b: Record<string, string>): string[] {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => a[k] !== b[k]).sort();
}
