/**
 * The TypeScript files tsserver's projects load: each `tsconfig.json` (or `jsconfig.json`) in the
 * folders of the workspace's TypeScript files and their parents takes its `files`, and its `include`
 * minus `exclude` (inherited through a relative `extends`; `include` defaulting to everything under
 * it, `exclude` to node_modules, bower_components, jspm_packages and `outDir`), and the configs its
 * `references` name. A file no config takes is in no project a reference search from the project
 * covers (tsserver sees it only while it is open, in a project of its own): a `scripts/` a
 * tsconfig's `include: ["src"]` leaves out holds callers no search finds. Without any config there
 * are only such inferred projects, and nothing is said.
 *
 * Wildcards as tsserver reads them: `*` and `?` within a segment, `**` any folders, a last segment
 * with neither a wildcard nor an extension a folder; a wildcard never enters a folder starting with
 * `.` nor node_modules, bower_components or jspm_packages. Patterns come from the repository, so
 * they run in RE2 (linear time).
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';

import { RE2JS } from 're2js';

import type { ServerScope } from '../language-profile.js';

const CONFIG_NAMES = ['tsconfig.json', 'jsconfig.json'];
const IMPLICIT_EXCLUDES = new Set(['node_modules', 'bower_components', 'jspm_packages']);

interface Config {
  /** Root-relative paths the config names in `files`. */
  files: Set<string>;
  /** Whether a root-relative path is included and not excluded. */
  includes(rel: string): boolean;
  /** Further configs (`references`), absolute. */
  references: string[];
}

interface RawConfig {
  files?: unknown;
  include?: unknown;
  exclude?: unknown;
  extends?: unknown;
  references?: unknown;
  compilerOptions?: { outDir?: unknown };
}

/** JSON with comments and trailing commas, as tsconfig files are written; undefined when unreadable. */
export function parseJsonc(text: string): unknown {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      const m = /^"(?:[^"\\]|\\.)*"/.exec(text.slice(i));
      if (!m) return undefined;
      out += m[0];
      i += m[0].length - 1;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 1;
      out += ' ';
    } else out += c;
  }
  try {
    return JSON.parse(out.replace(/,(\s*[}\]])/g, '$1'));
  } catch {
    return undefined;
  }
}

const strings = (v: unknown): string[] | undefined => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined);
const toPosix = (p: string) => p.split(path.sep).join('/');

/** A tsconfig wildcard pattern (relative to the config's folder) as a matcher of paths relative to that folder. */
function patternMatcher(pattern: string, asExclude: boolean): (relToConfig: string) => boolean {
  const p = toPosix(pattern).replace(/^\.\//, '').replace(/\/+$/, '');
  const last = p.slice(p.lastIndexOf('/') + 1);
  const wild = /[*?]/.test(p);
  // a folder: everything under it (an exclude names a folder or a file alike)
  const folder = !/[*?]/.test(last) && (asExclude || !/\.[^./]+$/.test(last));
  let source = '';
  for (let i = 0; i < p.length; i++) {
    const c = p[i]!;
    if (c === '*' && p[i + 1] === '*' && (i + 2 === p.length || p[i + 2] === '/')) {
      source += i + 2 === p.length ? '.*' : '(?:[^/]*/)*';
      i += 2;
    } else if (c === '*') source += '[^/]*';
    else if (c === '?') source += '[^/]';
    else source += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  if (!p) source = '.*';
  const re = RE2JS.compile(`${source}${folder && p ? '(?:/.*)?' : ''}`);
  const fixed = p.split('/').filter((s) => !/[*?]/.test(s));
  return (rel) => {
    if (!re.matches(rel)) return false;
    if (!wild || asExclude) return true;
    // wildcards skip dot-folders and package folders the pattern does not name itself
    return rel
      .split('/')
      .slice(0, -1)
      .every((s) => (!s.startsWith('.') && !IMPLICIT_EXCLUDES.has(s)) || fixed.includes(s));
  };
}

/** The config at `file` with its relative `extends` chain resolved; undefined when unreadable. */
function readConfig(
  file: string,
  seen = new Set<string>(),
): (RawConfig & { dir: string; parts: Partial<Record<'files' | 'include' | 'exclude', string>> }) | undefined {
  if (seen.has(file) || seen.size > 16) return undefined;
  seen.add(file);
  let raw: RawConfig;
  try {
    const parsed = parseJsonc(readFileSync(file, 'utf8'));
    if (!parsed || typeof parsed !== 'object') return undefined;
    raw = parsed as RawConfig;
  } catch {
    return undefined;
  }
  const dir = path.dirname(file);
  // `files`, `include` and `exclude` come from the nearest config that sets them, relative to it
  const out = { ...raw, dir, parts: {} as Partial<Record<'files' | 'include' | 'exclude', string>> };
  for (const k of ['files', 'include', 'exclude'] as const) if (raw[k] !== undefined) out.parts[k] = dir;
  const bases = typeof raw.extends === 'string' ? [raw.extends] : (strings(raw.extends) ?? []);
  for (const b of bases) {
    if (!b.startsWith('.')) continue; // a package's config: it does not name the project's files
    const target = path.resolve(dir, b.endsWith('.json') ? b : `${b}.json`);
    const base = readConfig(target, seen);
    if (!base) continue;
    for (const k of ['files', 'include', 'exclude'] as const) {
      if (out[k] !== undefined || base[k] === undefined) continue;
      out[k] = base[k];
      out.parts[k] = base.parts[k] ?? base.dir;
    }
  }
  return out;
}

function config(file: string, root: string): Config | undefined {
  const raw = readConfig(file);
  if (!raw) return undefined;
  const rel = (dir: string, p: string) => toPosix(path.relative(root, path.resolve(dir, p)));
  const files = new Set((strings(raw.files) ?? []).map((f) => rel(raw.parts.files ?? raw.dir, f)));
  const include = strings(raw.include) ?? (raw.files === undefined ? ['**/*'] : []);
  const outDir = typeof raw.compilerOptions?.outDir === 'string' ? [raw.compilerOptions.outDir] : [];
  const exclude = strings(raw.exclude) ?? [...IMPLICIT_EXCLUDES, ...outDir];
  const incDir = raw.parts.include ?? raw.dir;
  const excDir = raw.parts.exclude ?? raw.dir;
  const inc = include.map((p) => patternMatcher(p, false));
  const exc = exclude.map((p) => patternMatcher(p, true));
  const from = (dir: string, relToRoot: string) => toPosix(path.relative(dir, path.join(root, relToRoot)));
  const references = (Array.isArray(raw.references) ? raw.references : [])
    .map((r) => (r && typeof r === 'object' && typeof (r as { path?: unknown }).path === 'string' ? (r as { path: string }).path : undefined))
    .filter((p): p is string => !!p)
    .map((p) => (p.endsWith('.json') ? path.resolve(raw.dir, p) : path.resolve(raw.dir, p, 'tsconfig.json')));
  return {
    files,
    references,
    includes: (r) => inc.some((m) => m(from(incDir, r))) && !exc.some((m) => m(from(excDir, r))),
  };
}

/** Parsed configs by path, kept while the file's size and mtime stay. */
const memo = new Map<string, { stamp: string; config: Config | undefined }>();

function configAt(file: string, root: string): Config | undefined {
  let stamp: string;
  try {
    const st = statSync(file);
    if (!st.isFile()) return undefined;
    stamp = `${st.size}:${st.mtimeMs}`;
  } catch {
    return undefined;
  }
  const key = `${root}\0${file}`;
  const hit = memo.get(key);
  if (hit?.stamp === stamp) return hit.config;
  if (memo.size > 256) memo.clear();
  const c = config(file, root);
  memo.set(key, { stamp, config: c });
  return c;
}

/**
 * The scope of the configs found for `files` (root-relative TypeScript files), or undefined when there
 * is none (only inferred projects) or every file is in one.
 */
export function tsconfigScope(root: string, files: readonly string[]): ServerScope | undefined {
  const dirs = new Set<string>(['']);
  for (const f of files) for (let d = path.posix.dirname(f); d !== '.' && !dirs.has(d); d = path.posix.dirname(d)) dirs.add(d);
  const queue = [...dirs].flatMap((d) => CONFIG_NAMES.map((n) => path.join(root, d, n)));
  const configs: Config[] = [];
  const found: string[] = [];
  for (const seen = new Set<string>(); queue.length && seen.size < 512;) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const c = configAt(file, root);
    if (!c) continue;
    configs.push(c);
    found.push(toPosix(path.relative(root, file)));
    queue.push(...c.references);
  }
  if (!configs.length) return undefined;
  const sees = (rel: string) => configs.some((c) => c.files.has(rel) || c.includes(rel));
  if (files.every(sees)) return undefined;
  return { config: found.sort().slice(0, 3).join(', ') + (found.length > 3 ? ', …' : ''), include: [], exclude: [], sees };
}
