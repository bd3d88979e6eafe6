/**
 * When the language servers start. The catalog comes from parse trees, so no server is needed to
 * answer outlines, search or sources; servers answer the questions that need a compiler. By default
 * (`after-syntax`) each server a workspace's files need is started once the catalog's syntax pass
 * is done — never beside it, where it would take the cores the pass needs — at a lower CPU priority
 * (nice 10) while nobody waits on it; the first call that needs it raises it back (where the system
 * allows: an unprivileged process may not lower a nice value on Linux, then it stays, said once in
 * the log). A semantic question asked earlier starts its server at once, at normal priority.
 * `on-demand` starts none before a semantic question (memory over the first semantic answer's
 * time): `LSPGATE_SERVER_START`, `--server-start`, or `"serverStart"` in config.json.
 */
import path from 'node:path';

import { readJsonConfig } from '../../config/json-file.js';
import { userConfigFile } from '../../config/trust.js';
import { LspgateError } from '../../errors/errors.js';
import type { ServiceEnv } from '../env.js';
import { lowerPriority } from '../server-priority.js';

export type ServerStart = 'after-syntax' | 'on-demand';
const SETTINGS: readonly ServerStart[] = ['after-syntax', 'on-demand'];

/**
 * LSPGATE_SERVER_START, else the workspace's then the user's config.json `serverStart`, else
 * `fallback`: `after-syntax`, or `on-demand` for a process that answers one operation and exits (a
 * one-shot `lspgate <operation>` in its own process: a server it warmed up would be stopped at its
 * exit, and the operation that needs one starts it).
 */
export function serverStartSetting(root: string, env: NodeJS.ProcessEnv = process.env, fallback: ServerStart = 'after-syntax'): ServerStart {
  const fromEnv = env.LSPGATE_SERVER_START;
  if (fromEnv !== undefined && fromEnv !== '') return checked(fromEnv, 'LSPGATE_SERVER_START');
  for (const file of [path.join(root, '.lspgate', 'config.json'), userConfigFile(env)]) {
    const raw = readJsonConfig(file) as { serverStart?: unknown } | undefined;
    if (raw && typeof raw === 'object' && raw.serverStart !== undefined) return checked(raw.serverStart, `${file} serverStart`);
  }
  return fallback;
}

/** `--server-start` of `mcp`, `sidecar`, `repl` and `daemon`: checked, then in effect for the servers this process runs. */
export function applyServerStartFlag(raw: string | undefined): void {
  if (raw !== undefined) process.env.LSPGATE_SERVER_START = checked(raw, '--server-start');
}

function checked(v: unknown, where: string): ServerStart {
  if (typeof v === 'string' && (SETTINGS as readonly string[]).includes(v)) return v as ServerStart;
  throw new LspgateError('INVALID_INPUT', `${where} must be one of ${SETTINGS.join(', ')}, got ${JSON.stringify(v)}`, {
    setting: where,
    allowed: [...SETTINGS],
  });
}

/**
 * After a build's syntax pass: starts, in the background, one session per server and project root
 * that the cataloged files need (one file of each opens it), unless the setting is `on-demand`.
 */
export function warmServers(env: ServiceEnv, root: string, files: Iterable<string>, setting: ServerStart): void {
  if (setting === 'on-demand') return;
  const seen = new Set<string>();
  const started = new Set(env.broker.existing().map((s) => `${s.serverId}@${s.root}`));
  for (const rel of files) {
    const abs = path.join(root, rel);
    const route = env.broker.route(abs, root);
    if (!route) continue;
    const key = `${route.entry.id}@${route.root}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (started.has(key)) continue;
    env.broker
      .sessionFor(abs, root)
      .then((session) => {
        lowerPriority(env, session);
      })
      .catch((e: unknown) => env.logger.debug(`warm-up of ${route.entry.id} for ${root} did not start`, e));
  }
}
