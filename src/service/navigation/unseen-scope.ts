/**
 * What a server cannot see, and the refusal it earns. A reference search only covers the files the
 * server loads: pyright loads a project config's `include` minus its `exclude`, so a `tests/` the
 * config leaves out holds callers no reference search finds; gopls builds no package with a file
 * its build constraints exclude ("no package metadata"), so neither its diagnostics nor its
 * references exist. An answer resting on such a search says so, and an apply that trusts it (a
 * delete, a signature change) is refused as unchecked until the caller accepts that.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { globMatcher } from '../../catalog/glob.js';
import { LspgateError } from '../../errors/errors.js';
import type { ServiceCall } from '../call.js';

/** A Go file's reason, from gopls's error about it: no package of the build holds it. */
export function notInBuild(e: unknown, text: string): string | undefined {
  const message = e instanceof LspgateError ? String(e.details?.lspMessage ?? e.message) : '';
  if (!message.includes('no package metadata')) return undefined;
  const constraint = /^\/\/go:build .*$/m.exec(text.slice(0, Math.max(0, text.search(/^package /m))))?.[0];
  return `no package metadata: gopls builds no package with this file${constraint ? ` (excluded by build tags: \`${constraint}\`)` : ''}, so it has no diagnostics and no references`;
}

interface PyrightScope {
  config: string;
  include: string[];
  exclude: string[];
}

/** A TOML array of strings under `[tool.pyright]` (`include = ["src"]`): all a scope needs, no TOML library. */
function tomlArray(section: string, key: string): string[] | undefined {
  const m = new RegExp(`^\\s*${key}\\s*=\\s*\\[([^\\]]*)\\]`, 'm').exec(section);
  return m ? [...m[1]!.matchAll(/"([^"]*)"|'([^']*)'/g)].map((x) => x[1] ?? x[2]!) : undefined;
}

/** The root's pyright config (pyrightconfig.json first, as pyright reads it), when it narrows `include` or `exclude`. */
function pyrightScope(root: string): PyrightScope | undefined {
  try {
    const json = JSON.parse(readFileSync(path.join(root, 'pyrightconfig.json'), 'utf8')) as { include?: unknown; exclude?: unknown };
    const list = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
    return { config: 'pyrightconfig.json', include: list(json.include), exclude: list(json.exclude) };
  } catch {
    // no (readable) pyrightconfig.json: pyproject.toml's [tool.pyright]
  }
  let toml: string;
  try {
    toml = readFileSync(path.join(root, 'pyproject.toml'), 'utf8');
  } catch {
    return undefined;
  }
  const start = toml.search(/^\[tool\.pyright\]\s*$/m);
  if (start < 0) return undefined;
  const rest = toml.slice(start).split('\n').slice(1).join('\n');
  const section = rest.slice(0, rest.search(/^\[/m) >= 0 ? rest.search(/^\[/m) : rest.length);
  return { config: 'pyproject.toml [tool.pyright]', include: tomlArray(section, 'include') ?? [], exclude: tomlArray(section, 'exclude') ?? [] };
}

/** A pyright include/exclude entry (a path or a glob, relative to the root) as a matcher of relative paths. */
function entryMatcher(entry: string): (rel: string) => boolean {
  const e = entry.replace(/^\.\/?/, '').replace(/\/+$/, '');
  if (!e) return () => true;
  if (/[*?[]/.test(e)) {
    const m = globMatcher(e, { wholePath: true });
    return (rel) => m(rel) || rel.split('/').some((_, i, parts) => m(parts.slice(0, i + 1).join('/')));
  }
  return (rel) => rel === e || rel.startsWith(`${e}/`);
}

/**
 * The workspace's folders holding cataloged files of `language` its server does not load (for
 * pyright: outside its config's `include`, or inside its `exclude`), with the config that says so.
 * Empty when the server sees every cataloged file (or lspgate cannot tell for that server).
 */
export function unseenFolders(call: ServiceCall, language: string): { folders: string[]; config?: string } {
  if (language !== 'python') return { folders: [] };
  const scope = pyrightScope(call.root);
  if (!scope || (!scope.include.length && !scope.exclude.length)) return { folders: [] };
  const included = scope.include.map(entryMatcher);
  const excluded = scope.exclude.map(entryMatcher);
  const seen = (rel: string) => (!included.length || included.some((m) => m(rel))) && !excluded.some((m) => m(rel));
  const folders = new Set<string>();
  for (const [rel, entry] of call.workspace.catalog.files()) {
    if (entry.language !== language || seen(rel)) continue;
    const dir = path.posix.dirname(rel);
    // the outermost folder the server does not see: `tests/` rather than each of its subfolders
    const parts = dir === '.' ? [] : dir.split('/');
    const top = parts.findIndex((_, i) => !seen(parts.slice(0, i + 1).join('/') + '/x.py'));
    folders.add(dir === '.' ? rel : top >= 0 ? parts.slice(0, top + 1).join('/') + '/' : `${dir}/`);
  }
  return { folders: [...folders].sort(), config: scope.config };
}

/** The warning a reference answer carries when its server cannot see `folders`. */
export function unseenWarning(folders: string[], config: string | undefined): string {
  const shown = folders.slice(0, 5).join(', ') + (folders.length > 5 ? `, … (${folders.length})` : '');
  return `the server does not load ${shown} (${config ?? 'its project config'} leaves them out): references there are not found`;
}

/**
 * Refuses an apply that rests on a reference search blind to `folders` (a delete, a signature
 * change), unless the caller accepted it; `accept` names the field that does.
 */
export function refuseUnseen(what: string, folders: string[], config: string | undefined, accept: string): void {
  if (!folders.length) return;
  throw new LspgateError(
    'INVALID_INPUT',
    `${what} is unchecked: ${unseenWarning(folders, config)}; nothing was written: check those folders, or apply with ${accept}: true`,
    { unseen_folders: folders, unchecked: folders.map((folder) => ({ folder, reason: `not loaded by the server (${config ?? 'project config'})` })) },
  );
}
