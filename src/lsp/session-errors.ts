/**
 * The coded errors a session's lifecycle produces (with what a caller needs to act on them), and
 * the launch preparation whose failure is SERVER_NOT_INSTALLED.
 */
import { type ExpandContext, expandVariables, MissingPackageError, missingRequirement, resolveCommand, type ResolvedCommand } from '../config/load.js';
import type { ServerEntry } from '../config/schema.js';
import { LspgateError } from '../errors/errors.js';
import type { RestartPolicy } from './restart-policy.js';

export function notInstalledError(entry: ServerEntry, why: string): LspgateError {
  return new LspgateError('SERVER_NOT_INSTALLED', `${entry.id} is not installed (${why}). Install: ${entry.install}`, {
    server: entry.id,
    install: entry.install,
  });
}

export function startFailedError(serverId: string, root: string, cause: unknown, stderr: string[]): LspgateError {
  const why = cause instanceof Error ? cause.message : String(cause);
  return new LspgateError('SERVER_START_FAILED', `${serverId} failed to start at ${root}: ${why}`, { server: serverId, root, stderr }, { cause });
}

export interface CrashFacts {
  code: number | null;
  signal: string | null;
  reason: string;
  generation: number;
  stderr: string[];
}

export function crashError(serverId: string, root: string, f: CrashFacts): LspgateError {
  return new LspgateError('SERVER_CRASHED', `${serverId} crashed (${f.reason}); it restarts on the next request`, {
    server: serverId,
    root,
    exitCode: f.code,
    signal: f.signal,
    reason: f.reason,
    generation: f.generation,
    stderr: f.stderr,
  });
}

export function failedError(serverId: string, root: string, policy: RestartPolicy, stderr: string[]): LspgateError {
  const recent = policy.recent();
  return new LspgateError(
    'SERVER_FAILED',
    `${serverId} at ${root} crashed ${recent.length} times in ${Math.round(policy.windowMs / 1000)} s and was given up` +
      (stderr.length ? `; last stderr: ${stderr.slice(-3).join(' | ')}` : ''),
    { server: serverId, root, crashes: recent.length, reasons: recent.map((c) => c.reason), stderr },
  );
}

export function stoppedError(serverId: string): LspgateError {
  return new LspgateError('CANCELLED', `${serverId} was stopped`, { server: serverId });
}

export interface Launch {
  cmd: ResolvedCommand;
  initOptions: unknown;
  settings: Record<string, unknown>;
}

/** Command, initializationOptions and settings with variables expanded; SERVER_NOT_INSTALLED if any part is missing. */
export function prepareLaunch(entry: ServerEntry, ctx: ExpandContext): Launch {
  let initOptions: unknown;
  let settings: Record<string, unknown>;
  try {
    initOptions = expandVariables(entry.initializationOptions, ctx);
    settings = expandVariables(entry.settings, ctx);
  } catch (e) {
    if (e instanceof MissingPackageError) throw notInstalledError(entry, `package ${e.pkg} is not installed`);
    throw e;
  }
  const cmd = resolveCommand(entry, ctx);
  if (!cmd) throw notInstalledError(entry, `${entry.command} not found`);
  const missing = missingRequirement(entry, ctx);
  if (missing) throw notInstalledError(entry, `${entry.command} needs ${missing}, which is not found`);
  return { cmd, initOptions, settings };
}
