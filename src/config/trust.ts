/**
 * Workspace trust: whether a folder's own `.lspgate/servers.json` may make lspgate or a language
 * server run a program. A repository is data: a clone from an issue or a pull request that sets a
 * server's `env` (`NODE_OPTIONS=--require ./evil.cjs`), `command`, `args`, `extraPath` or an
 * interpreter path in its settings would otherwise run its own code at the first semantic call.
 * Only the user decides: `lspgate trust DIR` adds the folder's real path to `trustedFolders` in the
 * user's config (`$XDG_CONFIG_HOME/lspgate/config.json`), and a folder trusts its subfolders. A
 * repository's own config.json cannot name itself trusted: that key is read from the user's file only.
 */
import { chmodSync, existsSync, mkdirSync, realpathSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { LspgateError } from '../errors/errors.js';
import { isInside } from '../util/paths.js';
import { readJsonConfig } from './json-file.js';

/** The folder's own settings files that exist, relative to it (`.lspgate/servers.json`, `.lspgate/config.json`): what trust decides about. */
export function workspaceConfigFiles(root: string): string[] {
  return ['servers.json', 'config.json'].map((f) => path.join('.lspgate', f)).filter((f) => existsSync(path.join(root, f)));
}

export function userConfigFile(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config');
  return path.join(base, 'lspgate', 'config.json');
}

function userConfig(env: NodeJS.ProcessEnv): Record<string, unknown> {
  const file = userConfigFile(env);
  const raw = readJsonConfig(file);
  if (raw === undefined) return {};
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new LspgateError('INVALID_INPUT', `${file}: must hold a JSON object`, { file });
  return raw as Record<string, unknown>;
}

/** `trustedFolders` from the user's config, as written there. */
export function trustedFolders(env: NodeJS.ProcessEnv = process.env): string[] {
  const file = userConfigFile(env);
  const list = userConfig(env).trustedFolders;
  if (list === undefined) return [];
  if (!(Array.isArray(list) && list.every((r) => typeof r === 'string'))) {
    throw new LspgateError('INVALID_INPUT', `${file}: "trustedFolders" must be an array of folder paths`, { file });
  }
  return list as string[];
}

function real(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

/** The trusted folder `root` (by real path) is inside, or undefined: untrusted. */
export function trustedBy(root: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const r = real(root);
  return trustedFolders(env).find((t) => isInside(real(t), r));
}

export function isTrusted(root: string, env: NodeJS.ProcessEnv = process.env): boolean {
  return trustedBy(root, env) !== undefined;
}

/** What the answers say for a setting an untrusted folder's config may not set. */
export function ignoredWarning(setting: string, root: string): string {
  return `ignored ${setting}: ${root} is not a trusted folder, and the setting could make lspgate or a language server run a program or read past its limits; if you trust this repository, run \`lspgate trust ${root}\``;
}

/**
 * Keys of config.json only the user's file may set: read there alone, so a repository that names
 * itself trusted or grants itself other folders changes nothing; the answers say it was ignored.
 */
export const USER_ONLY_KEYS = ['trustedFolders', 'allowedRoots'] as const;

/** One warning per user-only key the workspace's `.lspgate/config.json` sets. */
export function userOnlyKeyWarnings(root: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const file = path.join('.lspgate', 'config.json');
  let raw: unknown;
  try {
    raw = readJsonConfig(path.join(root, file));
  } catch {
    return []; // an unreadable workspace config is reported where its limits are read
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return [];
  return USER_ONLY_KEYS.filter((key) => key in raw).map(
    (key) =>
      `ignored ${file} "${key}": only the user's config (${userConfigFile(env)}) may set it, a repository cannot widen what lspgate trusts or opens; to trust this folder, run \`lspgate trust ${root}\``,
  );
}

function writeUserConfig(env: NodeJS.ProcessEnv, config: Record<string, unknown>): void {
  const file = userConfigFile(env);
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(config, null, 2) + '\n', { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
}

export interface TrustChange {
  folder: string;
  changed: boolean;
  file: string;
  /** untrust: a trusted folder that still covers `folder` (a parent). */
  stillTrustedBy?: string;
}

/** Adds (trust) or removes (untrust) the real path of `dir` in the user's `trustedFolders`. */
export function setTrust(dir: string, trusted: boolean, env: NodeJS.ProcessEnv = process.env): TrustChange {
  let folder: string;
  try {
    folder = realpathSync(dir);
  } catch {
    if (trusted) throw new LspgateError('FILE_NOT_FOUND', `folder does not exist: ${dir}`, { path: dir });
    folder = path.resolve(dir);
  }
  const config = userConfig(env);
  const list = trustedFolders(env);
  const file = userConfigFile(env);
  const has = list.some((t) => real(t) === folder);
  if (trusted) {
    if (!has) writeUserConfig(env, { ...config, trustedFolders: [...list, folder] });
    return { folder, changed: !has, file };
  }
  const kept = list.filter((t) => real(t) !== folder);
  if (has) writeUserConfig(env, { ...config, trustedFolders: kept });
  const parent = kept.find((t) => isInside(real(t), folder));
  return { folder, changed: has, file, ...(parent ? { stillTrustedBy: parent } : {}) };
}
