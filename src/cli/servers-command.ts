/** `lspgate servers`: the merged servers.json entries, whether each one's command resolves, and the root's trust. */
import path from 'node:path';

import { loadLimits, loadServers, missingRequirement, resolveCommand } from '../config/load.js';
import { trustedBy, workspaceConfigFiles } from '../config/trust.js';
import { defaultCacheDir } from '../gateway/gateway.js';

export interface ServerStatus {
  id: string;
  languages: string[];
  extensions: string[];
  enabled: boolean;
  installed: boolean;
  /** The resolved executable, when installed. */
  command?: string;
  install: string;
}

export interface ServersReport {
  root: string;
  /** The trusted folder (user config `trustedFolders`) the root is inside, or null. */
  trusted_by: string | null;
  /** Workspace settings left out because the root is not trusted. */
  ignored: string[];
  /** The root's own settings files (`.lspgate/servers.json`, `.lspgate/config.json`) that exist. */
  workspace_config: string[];
  servers: ServerStatus[];
}

export function serversReport(root: string, extraFiles: string[]): ServersReport {
  const cacheDir = defaultCacheDir();
  const abs = path.resolve(root);
  const trust = trustedBy(abs);
  const ignored: string[] = [];
  const entries = loadServers({ workspaceRoot: abs, extraFiles, trusted: trust !== undefined, ignored });
  loadLimits(abs, process.env, { trusted: trust !== undefined, ignored });
  const servers = entries.map((entry): ServerStatus => {
    const ctx = { cacheDir, root: abs };
    const resolved = missingRequirement(entry, ctx) === undefined ? resolveCommand(entry, ctx) : undefined;
    return {
      id: entry.id,
      languages: entry.languages,
      extensions: entry.extensions,
      enabled: entry.enabled,
      installed: resolved !== undefined,
      ...(resolved ? { command: [resolved.file, ...resolved.args].join(' ') } : {}),
      install: entry.install,
    };
  });
  return { root: abs, trusted_by: trust ?? null, ignored, workspace_config: workspaceConfigFiles(abs), servers };
}

export function serversText(report: ServersReport): string {
  const trust = report.trusted_by
    ? `${report.root}: trusted (trustedFolders: ${report.trusted_by}); its .lspgate config applies in full`
    : report.workspace_config.length === 0
      ? `${report.root}: not trusted, and it has no .lspgate config of its own (nothing to apply or ignore)`
      : `${report.root}: not trusted; its ${report.workspace_config.join(' and ')} ${report.workspace_config.length === 1 ? 'is' : 'are'} read as data only (\`lspgate trust ${report.root}\` to trust it)`;
  const ignored = report.ignored.map((s) => `  ignored: ${s}`);
  const servers = report.servers.map(
    (s) =>
      `${s.id}${s.enabled ? '' : ' (disabled)'}: ${s.installed ? 'installed' : 'NOT INSTALLED'}\n` +
      `  languages ${s.languages.join(', ')}; extensions ${s.extensions.join(' ')}\n` +
      (s.installed ? `  command ${s.command}` : `  install: ${s.install}`),
  );
  return [trust, ...ignored, ...servers].join('\n');
}
