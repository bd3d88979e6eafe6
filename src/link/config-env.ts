/**
 * The environment a daemon's answers depend on (node builtins only: the thin client loads it): every
 * `LSPGATE_*` setting but those about the daemon or this process alone, PATH (where language
 * servers are found), XDG_CONFIG_HOME and HOME (the user's servers.json and config.json). A
 * client sends it hashed with its `lspgate/attach`; a daemon started under another one refuses
 * the attach (DAEMON_FAILED, reason env_differs, naming the variables, never their values), so no
 * client silently gets answers under another client's settings.
 */
import { createHash } from 'node:crypto';

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
  // lspgate mcp --http only, never through the daemon
  'LSPGATE_TOKEN',
]);
const OTHERS = ['PATH', 'XDG_CONFIG_HOME', 'HOME'];

/** Variable name → a hash of its value, for the variables set (non-empty) that answers depend on. */
export function configEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || value === '') continue;
    if (name.startsWith('LSPGATE_') ? NOT_ANSWER_SETTINGS.has(name) : !OTHERS.includes(name)) continue;
    out[name] = createHash('sha256').update(value).digest('hex').slice(0, 16);
  }
  return out;
}

/** The variables set in one and not the other, or set to another value; sorted. */
export function envDifference(a: Record<string, string>, b: Record<string, string>): string[] {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => a[k] !== b[k]).sort();
}
