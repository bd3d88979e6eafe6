/**
 * The per-path rules of the file-safety pipeline: skip patterns, `.gitignore`
 * (nested, via the `ignore` package), extra ignore patterns, secret files, extensions. Shared by
 * the walker, the watcher and search_text, so every path is judged the same way.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import ignore, { type Ignore } from 'ignore';

import { fileExtension, isSecretPath } from '../util/paths.js';

export const SKIP_DIRS = new Set([
  'node_modules',
  'vendor',
  '.git',
  '.hg',
  '.svn',
  '__pycache__',
  '.venv',
  'venv',
  '.tox',
  '.mypy_cache',
  '.pytest_cache',
  '.next',
  '.nuxt',
  '.cache',
  '.idea',
  '.lspgate',
]);

/**
 * Names build tools write their output under — but also ordinary package names (a Go package
 * `go/build`, a `src/build/` of build scripts). Such a directory is output, and skipped, where build
 * tools put it: at the workspace root or beside a project manifest; elsewhere it is source.
 */
export const OUTPUT_DIRS = new Set(['build', 'dist', 'out', 'target', 'coverage']);

const SKIP_FILES = [
  /(^|[.-])lock(\.json|\.ya?ml)?$/i, // package-lock.json, pnpm-lock.yaml, yarn.lock, composer.lock, Cargo.lock
  /^go\.sum$/,
  /\.min\.(js|css|mjs)$/i,
  /\.map$/i,
  /\.generated\.[^.]+$/i,
  /_pb2(_grpc)?\.py$/,
  /\.pb\.go$/,
  /_gen(erated)?\.go$/,
];

export const BINARY_EXTENSIONS = new Set(
  (
    '.png .jpg .jpeg .gif .bmp .ico .webp .svgz .pdf .zip .gz .tgz .bz2 .xz .7z .rar .jar .war .class .exe .dll .so ' +
    '.dylib .a .o .obj .bin .dat .db .sqlite .wasm .woff .woff2 .ttf .otf .eot .mp3 .mp4 .mov .avi .wav .flac .ogg ' +
    '.psd .pyc .pyo .node'
  ).split(' '),
);

export type SkipReason =
  | 'skip_pattern'
  | 'gitignore'
  | 'extra_ignore'
  | 'secret'
  | 'unsupported_extension'
  | 'binary'
  | 'too_large'
  | 'generated'
  | 'minified'
  | 'symlink'
  | 'symlink_outside_root'
  | 'outside_root'
  | 'private_key'
  | 'over_max_files'
  | 'name_not_utf8'
  | 'unreadable';

export interface FilterOptions {
  /** Lower-case extensions with the dot; undefined = any text file (search_text over all files). */
  extensions?: Set<string>;
  extraIgnore?: string[];
  /**
   * File names that make their directory a project a build tool writes output into (the language
   * profiles' manifests: package.json, go.mod, Cargo.toml …); without them only the workspace root is.
   */
  manifests?: ReadonlySet<string>;
}

export class FileFilter {
  private readonly gitignores = new Map<string, Ignore | null>();
  /** Directories (relative) that hold a project manifest. */
  private readonly projects = new Map<string, boolean>();
  private readonly extra: Ignore | undefined;

  constructor(
    readonly root: string,
    private readonly opts: FilterOptions,
  ) {
    this.extra = opts.extraIgnore?.length ? ignore().add(opts.extraIgnore) : undefined;
  }

  /** Why a directory (relative, `/`) is not entered, or undefined. */
  directory(rel: string): SkipReason | undefined {
    const base = rel.slice(rel.lastIndexOf('/') + 1);
    if (SKIP_DIRS.has(base)) return 'skip_pattern';
    if (OUTPUT_DIRS.has(base) && this.isProject(rel.slice(0, Math.max(0, rel.lastIndexOf('/'))))) return 'skip_pattern';
    if (this.extra?.ignores(rel + '/')) return 'extra_ignore';
    if (this.gitIgnored(rel, true)) return 'gitignore';
    return undefined;
  }

  /** Why a file is skipped by name alone (no I/O on the file), or undefined. */
  file(rel: string): SkipReason | undefined {
    const base = rel.slice(rel.lastIndexOf('/') + 1);
    if (isSecretPath(base)) return 'secret';
    const ext = fileExtension(base);
    if (BINARY_EXTENSIONS.has(path.extname(base).toLowerCase())) return 'binary';
    if (this.opts.extensions && !this.opts.extensions.has(ext)) return 'unsupported_extension';
    if (SKIP_FILES.some((re) => re.test(base))) return 'skip_pattern';
    if (this.extra?.ignores(rel)) return 'extra_ignore';
    if (this.gitIgnored(rel, false)) return 'gitignore';
    return undefined;
  }

  /** A file (or directory) and every directory above it (single paths from the watcher or a caller). */
  path(rel: string, isDirectory = false): SkipReason | undefined {
    const parts = rel.split('/');
    for (let i = 1; i < parts.length; i++) {
      const why = this.directory(parts.slice(0, i).join('/'));
      if (why) return why;
    }
    return isDirectory ? this.directory(rel) : this.file(rel);
  }

  /** Whether a file of this name makes its directory a project (the cached check is then stale when it changes). */
  isManifest(base: string): boolean {
    return this.opts.manifests?.has(base) ?? false;
  }

  /** Forget a cached .gitignore and manifest check (the directory changed on disk). */
  invalidate(dirRel: string): void {
    this.gitignores.delete(dirRel);
    this.projects.delete(dirRel);
  }

  /** The workspace root, or a directory holding a project manifest. */
  private isProject(dirRel: string): boolean {
    if (dirRel === '') return true;
    let yes = this.projects.get(dirRel);
    if (yes === undefined) {
      const dir = path.join(this.root, dirRel);
      yes = [...(this.opts.manifests ?? [])].some((m) => existsSync(path.join(dir, m)));
      this.projects.set(dirRel, yes);
    }
    return yes;
  }

  private gitIgnored(rel: string, isDir: boolean): boolean {
    const parts = rel.split('/');
    // Every .gitignore from the root down to the entry's directory applies, relative to its dir.
    for (let i = 0; i < parts.length; i++) {
      const dir = parts.slice(0, i).join('/');
      const ig = this.gitignoreOf(dir);
      if (!ig) continue;
      const sub = parts.slice(i).join('/') + (isDir ? '/' : '');
      if (ig.ignores(sub)) return true;
    }
    return false;
  }

  private gitignoreOf(dirRel: string): Ignore | null {
    let ig = this.gitignores.get(dirRel);
    if (ig !== undefined) return ig;
    const file = path.join(this.root, dirRel, '.gitignore');
    ig = null;
    if (existsSync(file)) {
      try {
        ig = ignore().add(readFileSync(file, 'utf8'));
      } catch {
        ig = null; // unreadable .gitignore: nothing extra is ignored, the walk goes on
      }
    }
    this.gitignores.set(dirRel, ig);
    return ig;
  }
}

/** Go's convention (`// Code generated ... DO NOT EDIT.`) and `@generated` near the top. */
export function looksGenerated(head: Buffer): boolean {
  const text = head.subarray(0, 1024).toString('utf8');
  return /^\/\/ Code generated .* DO NOT EDIT\.$/m.test(text) || /^.{0,8}@generated\b/m.test(text.split('\n').slice(0, 5).join('\n'));
}

/** How much of a file the minified check reads, the smallest sample it judges, and what a long line is. */
const MINIFIED_SAMPLE = 64 * 1024;
const MINIFIED_MIN = 4096;
const LONG_LINE = 1000;

/**
 * A minified or bundled file, by its shape and not its name: in its first 64 KiB, more than half the
 * bytes sit on lines over 1,000 characters. Written source almost never does (a long string or
 * data line here and there); a bundle is one line or a few.
 */
export function looksMinified(body: Buffer): boolean {
  const sample = body.subarray(0, MINIFIED_SAMPLE);
  if (sample.length < MINIFIED_MIN) return false;
  let long = 0;
  let start = 0;
  for (;;) {
    const nl = sample.indexOf(10, start);
    const end = nl < 0 ? sample.length : nl;
    if (end - start > LONG_LINE) long += end - start;
    if (nl < 0) break;
    start = nl + 1;
  }
  return long * 2 > sample.length;
}

export function hasNulByte(head: Buffer): boolean {
  return head.includes(0);
}
