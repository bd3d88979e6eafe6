/**
 * Loads servers.json layers (shipped → user → workspace → extra files), merged by `id` with later
 * layers winning, and the gateway limits. Also resolves an entry's command and expands the
 * `${packageDir:<pkg>}`, `${cacheDir}`, `${root}` variables in its args/options/settings.
 */
import { accessSync, constants, existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

import { z } from 'zod';

import { LspgateError } from '../errors/errors.js';
import { packageRoot } from '../link/paths.js';
import type { Logger } from '../util/logger.js';
import { readJsonConfig } from './json-file.js';
import { type Limits, LimitsSchema, type ServerEntry, ServerEntrySchema, type ToolsSetting, ToolsSettingSchema } from './schema.js';
import { isTrusted, userConfigFile } from './trust.js';
import { untrustedLayer } from './workspace-layer.js';

export { packageRoot } from '../link/paths.js';
export { readJsonConfig } from './json-file.js';

export function shippedServersFile(): string {
  return path.join(packageRoot(), 'servers.json');
}

export function userServersFile(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config');
  return path.join(base, 'lspgate', 'servers.json');
}

export interface LoadServersOptions {
  workspaceRoot: string;
  /**
   * Whether the workspace's own servers.json is the user's to run (config/trust.ts); false: it is cut
   * to data (config/workspace-layer.ts). Default: decided from the user's `trustedFolders` now.
   */
  trusted?: boolean;
  /** Receives the workspace settings left out because the folder is not trusted (`servers[x].env`). */
  ignored?: string[];
  extraFiles?: string[];
  logger?: Logger;
  env?: NodeJS.ProcessEnv;
  /** Tests: replaces the shipped file. */
  shippedFile?: string;
}

/** A layer may carry partial entries (only `id` is required); the merged result is validated in full. */
const PartialEntrySchema = ServerEntrySchema.partial().extend({ id: ServerEntrySchema.shape.id });
const PartialFileSchema = z.object({ $schema: z.string().optional(), servers: z.array(PartialEntrySchema) });

type RawEntry = Record<string, unknown> & { id: string };

function readLayer(file: string, required: boolean): RawEntry[] | undefined {
  if (!existsSync(file)) {
    if (required) throw new LspgateError('INVALID_INPUT', `servers file not found: ${file}`, { file });
    return undefined;
  }
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new LspgateError('INVALID_INPUT', `servers file is not valid JSON: ${file}: ${(e as Error).message}`, { file });
  }
  const checked = PartialFileSchema.safeParse(raw);
  if (!checked.success) {
    throw new LspgateError('INVALID_INPUT', `invalid servers file ${file}: ${z.prettifyError(checked.error)}`, {
      file,
      issues: checked.error.issues,
    });
  }
  // Merge the raw objects, not the parsed ones: parsing would fill defaults that then override earlier layers.
  return (raw as { servers: RawEntry[] }).servers;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Objects merge key by key (recursively); arrays and scalars are replaced. */
export function deepMerge(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over)) {
    const b = out[k];
    out[k] = isPlainObject(b) && isPlainObject(v) ? deepMerge(b, v) : v;
  }
  return out;
}

export function loadServers(opts: LoadServersOptions): ServerEntry[] {
  const env = opts.env ?? process.env;
  const layers: { file: string; required: boolean }[] = [
    { file: opts.shippedFile ?? shippedServersFile(), required: true },
    { file: userServersFile(env), required: false },
    { file: path.join(opts.workspaceRoot, '.lspgate', 'servers.json'), required: false },
    ...(opts.extraFiles ?? []).map((f) => ({ file: path.resolve(f), required: true })),
  ];
  const workspaceFile = layers[2]!.file;
  const trusted = opts.trusted ?? isTrusted(opts.workspaceRoot, env);
  const merged = new Map<string, { raw: Record<string, unknown>; files: string[] }>();
  for (const layer of layers) {
    let entries = readLayer(layer.file, layer.required);
    if (!entries) continue;
    if (layer.file === workspaceFile && !trusted) {
      // A repository is data: what in it would start a program is the user's to allow.
      const cut = untrustedLayer(entries, new Set(merged.keys()));
      entries = cut.entries;
      for (const setting of cut.ignored) {
        opts.logger?.warn(`${workspaceFile}: ${setting} ignored (the folder is not trusted)`);
        opts.ignored?.push(`${path.join('.lspgate', 'servers.json')} ${setting}`);
      }
    }
    opts.logger?.debug(`servers layer ${layer.file}: ${entries.map((e) => e.id).join(', ')}`);
    for (const e of entries) {
      const prev = merged.get(e.id);
      merged.set(e.id, prev ? { raw: deepMerge(prev.raw, e), files: [...prev.files, layer.file] } : { raw: e, files: [layer.file] });
    }
  }
  const out: ServerEntry[] = [];
  for (const [id, { raw, files }] of merged) {
    const parsed = ServerEntrySchema.safeParse(raw);
    if (!parsed.success) {
      throw new LspgateError(
        'INVALID_INPUT',
        `server entry "${id}" is incomplete or invalid after merging ${files.join(', ')}: ${z.prettifyError(parsed.error)}`,
        {
          file: files[files.length - 1],
          files,
          server: id,
          issues: parsed.error.issues,
        },
      );
    }
    const entry = parsed.data;
    // after the merge: neither an untrusted folder's layer nor a later one can take these back
    if (!trusted && Object.keys(entry.untrustedEnv).length) entry.env = { ...entry.env, ...entry.untrustedEnv };
    out.push(entry);
  }
  return out;
}

/** `maxFileBytes` ↔ `LSPGATE_MAX_FILE_BYTES`, `perServerConcurrency` ↔ `LSPGATE_PER_SERVER_CONCURRENCY`. */
export function limitEnvName(key: string): string {
  return 'LSPGATE_' + key.replace(/([A-Z])/g, '_$1').toUpperCase();
}

export interface ToolsLayer {
  file: string;
  setting: ToolsSetting;
}

/**
 * `"tools"` as each config file sets it: the user's `$XDG_CONFIG_HOME/lspgate/config.json` and the
 * workspace's `.lspgate/config.json` (operations/profiles.ts `configuredTools` decides between them).
 */
export function loadToolsLayers(root: string, env: NodeJS.ProcessEnv = process.env): { user?: ToolsLayer; workspace?: ToolsLayer } {
  const read = (file: string): ToolsLayer | undefined => {
    const raw = readJsonConfig(file);
    if (!isPlainObject(raw) || raw.tools === undefined) return undefined;
    const parsed = ToolsSettingSchema.safeParse(raw.tools);
    if (!parsed.success) throw new LspgateError('INVALID_INPUT', `${file}: "tools" must be "core", "default", "all" or a list of operation names`, { file });
    return { file, setting: parsed.data };
  };
  const user = read(userConfigFile(env));
  const workspace = read(path.join(root, '.lspgate', 'config.json'));
  return { ...(user ? { user } : {}), ...(workspace ? { workspace } : {}) };
}

function limitsOf(file: string): Record<string, unknown> {
  const raw = readJsonConfig(file);
  if (raw === undefined) return {};
  if (isPlainObject(raw) && isPlainObject(raw.limits)) return raw.limits;
  if (isPlainObject(raw) && raw.limits !== undefined) throw new LspgateError('INVALID_INPUT', `${file}: "limits" must be an object`, { file });
  return {};
}

/** A limit's value on one scale: `serverMemoryMb` 0 is no budget (the highest), unset half the machine's memory. */
function limitRank(key: string, v: unknown): number {
  if (key === 'serverMemoryMb') {
    if (v === 0) return Infinity;
    if (v === undefined) return os.totalmem() / 2 / 1024 / 1024;
  }
  return typeof v === 'number' ? v : Infinity;
}

export interface LoadLimitsOptions {
  /** Whether the workspace's config.json may raise a limit (config/trust.ts); default: from `trustedFolders`. */
  trusted?: boolean;
  /** Receives the workspace limits left out (`.lspgate/config.json limits.maxFileBytes`). */
  ignored?: string[];
}

/**
 * Defaults, then the user's config.json `limits`, then the workspace's `.lspgate/config.json`, then
 * LSPGATE_* env. An untrusted workspace may only lower a limit: `maxFileBytes: 2e9` in a cloned
 * repository made one file cost the daemon 6 GB and every client its answers.
 */
export function loadLimits(root: string, env: NodeJS.ProcessEnv = process.env, opts: LoadLimitsOptions = {}): Limits {
  const file = path.join(root, '.lspgate', 'config.json');
  const userFile = userConfigFile(env);
  const fromUser = limitsOf(userFile);
  const fromFile = limitsOf(file);
  const fromEnv: Record<string, unknown> = {};
  for (const key of Object.keys(LimitsSchema.shape)) {
    const v = env[limitEnvName(key)];
    if (v === undefined || v === '') continue;
    const n = Number(v);
    if (!Number.isFinite(n))
      throw new LspgateError('INVALID_INPUT', `${limitEnvName(key)} must be a number, got ${JSON.stringify(v)}`, { env: limitEnvName(key) });
    fromEnv[key] = n;
  }
  const parse = (layers: Record<string, unknown>, named: string) => {
    const parsed = LimitsSchema.strict().safeParse(layers);
    if (!parsed.success) {
      throw new LspgateError('INVALID_INPUT', `invalid limits (${named} / LSPGATE_* env): ${z.prettifyError(parsed.error)}`, {
        file: named,
        issues: parsed.error.issues,
      });
    }
    return parsed.data;
  };
  const base = parse({ ...fromUser, ...fromEnv }, userFile);
  const workspace = parse({ ...fromUser, ...fromFile, ...fromEnv }, file);
  if (opts.trusted ?? isTrusted(root, env)) return workspace;
  const out: Record<string, unknown> = { ...workspace };
  for (const key of Object.keys(fromFile)) {
    const mine = (workspace as Record<string, unknown>)[key];
    const theirs = (base as Record<string, unknown>)[key];
    if (limitRank(key, mine) <= limitRank(key, theirs)) continue;
    out[key] = theirs;
    opts.ignored?.push(`${path.join('.lspgate', 'config.json')} limits.${key} (${String(mine)}; it may only lower the limit, ${String(theirs ?? 'unset')})`);
  }
  return out as Limits;
}

// ---------------------------------------------------------------------------------------------
// Command resolution and variable expansion

const requireHere = createRequire(import.meta.url);

/** Directory of a package installed in lspgate's OWN node_modules (never `.bin`). */
export function packageDir(pkg: string): string | undefined {
  try {
    return path.dirname(requireHere.resolve(`${pkg}/package.json`));
  } catch {
    // packages whose "exports" hide package.json: look in the node_modules folders node would search
    for (const dir of requireHere.resolve.paths(pkg) ?? []) {
      const candidate = path.join(dir, pkg);
      if (existsSync(path.join(candidate, 'package.json'))) return candidate;
    }
    return undefined;
  }
}

export interface ExpandContext {
  cacheDir: string;
  root: string;
}

/** Thrown by expandVariables when `${packageDir:x}` names a package that is not installed. */
export class MissingPackageError extends Error {
  constructor(readonly pkg: string) {
    super(`package ${pkg} is not installed`);
  }
}

export function expandString(s: string, ctx: ExpandContext): string {
  return s.replace(/\$\{(packageDir:([^}]+)|cacheDir|root)\}/g, (_m, what: string, pkg: string | undefined) => {
    if (what === 'cacheDir') return ctx.cacheDir;
    if (what === 'root') return ctx.root;
    const dir = packageDir(pkg!);
    if (!dir) throw new MissingPackageError(pkg!);
    return dir;
  });
}

export function expandVariables<T>(value: T, ctx: ExpandContext): T {
  if (typeof value === 'string') return expandString(value, ctx) as T;
  if (Array.isArray(value)) return value.map((v) => expandVariables(v, ctx)) as T;
  if (isPlainObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expandVariables(v, ctx)])) as T;
  }
  return value;
}

export interface ResolvedCommand {
  file: string;
  args: string[];
  env: Record<string, string>;
}

function isExecutable(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The executable `command` names: itself when it holds a `/`, else the first in `dirs` (PATH order). */
export function searchPath(command: string, dirs: string[]): string | undefined {
  if (command.includes('/')) return isExecutable(path.resolve(command)) ? path.resolve(command) : undefined;
  for (const dir of dirs) {
    if (!dir) continue;
    const candidate = path.join(dir, command);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

/**
 * How to start `entry`: its package's own bin file (run with this Node when `node: true`), else
 * `command` on extraPath + PATH. Undefined when it is not installed (or a `${packageDir:x}` it
 * needs is missing). The env holds only what lspgate adds (entry.env + PATH).
 */
export function resolveCommand(entry: ServerEntry, ctx: ExpandContext, env: NodeJS.ProcessEnv = process.env): ResolvedCommand | undefined {
  let args: string[];
  let extraEnv: Record<string, string>;
  try {
    args = expandVariables(entry.args, ctx);
    extraEnv = expandVariables(entry.env, ctx);
  } catch (e) {
    if (e instanceof MissingPackageError) return undefined;
    throw e;
  }
  const extraPath = expandVariables(entry.extraPath, ctx);
  const PATH = [...extraPath, env.PATH ?? ''].filter(Boolean).join(path.delimiter);
  const outEnv = { ...extraEnv, PATH };
  if (entry.package && entry.binPath) {
    const dir = packageDir(entry.package);
    const bin = dir ? path.join(dir, entry.binPath) : undefined;
    if (bin && existsSync(bin)) {
      return entry.node ? { file: process.execPath, args: [bin, ...args], env: outEnv } : { file: bin, args, env: outEnv };
    }
  }
  const found = searchPath(entry.command, PATH.split(path.delimiter));
  if (!found) return undefined;
  return { file: found, args, env: outEnv };
}

/** The first of `entry.requires` that is found neither on extraPath nor on PATH. */
export function missingRequirement(entry: ServerEntry, ctx: ExpandContext, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const dirs = [...expandVariables(entry.extraPath, ctx), ...(env.PATH ?? '').split(path.delimiter)].filter(Boolean);
  return entry.requires.find((program) => !searchPath(program, dirs));
}
