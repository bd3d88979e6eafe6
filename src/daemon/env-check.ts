/**
 * Whether a client may share this daemon: would its answers be the same under the client's own
 * environment? lspgate's own settings and the user's config files must be equal; for each enabled
 * language server, what it would run and read (src/config/server-identity.ts) must be equal — a
 * client whose PATH differs only where no server looks (a duplicate entry, a directory without
 * server binaries), or whose variables differ only in ones no server reads, shares the daemon and
 * its sessions. Otherwise the attach is refused (DAEMON_FAILED, env_differs) naming what differs:
 * variables by name, programs with both paths.
 */
import type { ServerEntry } from '../config/schema.js';
import { identityDifferences, type ServerEnvironment, serverIdentity } from '../config/server-identity.js';
import { LspgateError } from '../errors/errors.js';
import { type AttachEnvironment, envDifference, valueHash } from '../link/config-env.js';

export interface EnvDifferences {
  /** lspgate's own settings (LSPGATE_*) that differ. */
  variables: string[];
  /** The user's config files that differ (servers.json, config.json). */
  files: string[];
  /** Servers that would differ, and how. */
  servers: { server: string; differs: string[] }[];
}

function serverEnv(e: AttachEnvironment): ServerEnvironment {
  return { path: e.path, node: e.node, variables: e.variables };
}

export function envDifferences(
  client: AttachEnvironment,
  daemon: AttachEnvironment,
  servers: readonly ServerEntry[],
  cacheDir: string,
): EnvDifferences | undefined {
  const ctx = { cacheDir, root: '/' };
  const variables = envDifference(client.settings, daemon.settings);
  const files = envDifference(client.user_files, daemon.user_files);
  const differing: EnvDifferences['servers'] = [];
  for (const entry of servers) {
    if (!entry.enabled) continue;
    const differs = identityDifferences(serverIdentity(entry, ctx, serverEnv(client), valueHash), serverIdentity(entry, ctx, serverEnv(daemon), valueHash));
    if (differs.length) differing.push({ server: entry.id, differs });
  }
  return variables.length || files.length || differing.length ? { variables, files, servers: differing } : undefined;
}

/** The refusal: what differs, never a variable's value. */
export function envDiffersError(d: EnvDifferences, clients: number): LspgateError {
  const parts = [
    ...(d.variables.length ? [`${d.variables.join(', ')} ${d.variables.length > 1 ? 'differ' : 'differs'} (set, unset or another value)`] : []),
    ...d.files.map((f) => `the user's ${f} differs`),
    ...d.servers.map((s) => `${s.server} would differ (${s.differs.join('; ')})`),
  ];
  return new LspgateError(
    'DAEMON_FAILED',
    `the running lspgate daemon (pid ${process.pid}) would not answer as this client's own servers would: ${parts.join('; ')} — run \`lspgate daemon stop\` to restart it with this environment (it serves ${clients} client(s) now), or use --daemon off`,
    { reason: 'env_differs', variables: d.variables, files: d.files, servers: d.servers, clients, daemon_pid: process.pid },
  );
}
