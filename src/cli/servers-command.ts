/** `lspgate servers`: the merged servers.json entries and whether each one's command resolves. */
import path from 'node:path';
import { loadServers, missingRequirement, resolveCommand } from '../config/load.js';
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

export function serverStatuses(root: string, extraFiles: string[]): ServerStatus[] {
  const cacheDir = defaultCacheDir();
  const abs = path.resolve(root);
  return loadServers({ workspaceRoot: abs, extraFiles }).map((entry) => {
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
}

export function serversText(list: ServerStatus[]): string {
  return list
    .map(
      (s) =>
        `${s.id}${s.enabled ? '' : ' (disabled)'}: ${s.installed ? 'installed' : 'NOT INSTALLED'}\n` +
        `  languages ${s.languages.join(', ')}; extensions ${s.extensions.join(' ')}\n` +
        (s.installed ? `  command ${s.command}` : `  install: ${s.install}`),
    )
    .join('\n');
}
