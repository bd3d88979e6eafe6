/**
 * project_context (seed 002 ProjectContext): what an agent needs before touching a workspace — its
 * languages, packages and entry points, its top-level elements (the catalog), the module dependency
 * map (the import graph, as the language servers resolve imports) and how its tests are laid out.
 * Everything comes from the catalog, the import graph and the manifests; nothing is guessed.
 */
import path from 'node:path';
import type { CatalogSymbol } from '../../core/catalog.js';
import type { ServiceCall } from '../../service/call.js';
import { isTestPath } from '../../util/test-paths.js';
import { importGraph, noteGraphSkips } from '../imports/import-graph.js';
import { addCatalogErrors, skipsOf } from '../skips.js';
import { TEST_CONVENTIONS, testConvention } from './test-conventions.js';
import { readJsonObjectIfAny, readTextIfAny } from '../../util/optional-files.js';

export type ElementType = 'function' | 'class' | 'component' | 'hook' | 'interface' | 'type';

export interface CodeElement {
  name: string;
  type: ElementType;
  file: string;
  line: number;
  symbol_id: string;
}

export const PACKAGE_KINDS = ['npm', 'go-module', 'go-package', 'python-distribution', 'python-package', 'composer', 'php-namespace'] as const;

export interface PackageInfo {
  name: string;
  kind: (typeof PACKAGE_KINDS)[number];
  /** Workspace-relative directory (`.` for the root) or the manifest. */
  path: string;
}

export interface EntryPoint {
  file: string;
  line?: number;
  name?: string;
  reason: string;
}

export interface PatternInfo {
  files: string[];
  usage: number;
  description: string;
}

export interface ProjectContextData {
  languages: Record<string, number>;
  packages: PackageInfo[];
  entry_points: EntryPoint[];
  elements: CodeElement[];
  /** Importing file → the workspace files (Go: package directories) it imports. */
  dependencies: Record<string, string[]>;
  test_patterns: Record<string, PatternInfo>;
  files: number;
  test_files: number;
}

export async function projectContext(call: ServiceCall): Promise<ProjectContextData> {
  const catalog = call.workspace.catalog;
  await catalog.build(call.signal ? { signal: call.signal } : {});
  const files = [...catalog.files()].sort(([a], [b]) => a.localeCompare(b));
  const all = await catalog.all();
  const languages: Record<string, number> = {};
  for (const [, e] of files) languages[e.language] = (languages[e.language] ?? 0) + 1;
  const graph = await importGraph(call);
  noteGraphSkips(call, graph);
  addCatalogErrors(skipsOf(call), catalog.status().errors);
  const dependencies: Record<string, string[]> = {};
  for (const [file, fi] of [...graph.files].sort(([a], [b]) => a.localeCompare(b))) {
    const to = new Set<string>();
    for (const imp of fi.imports) if (imp.status === 'workspace' && imp.target && imp.target !== file) to.add(imp.target_package ?? imp.target);
    if (to.size) dependencies[file] = [...to].sort();
  }
  const testFiles = files.filter(([f, e]) => isTestPath(f, e.language)).map(([f, e]) => ({ file: f, language: e.language }));
  const manifests = readManifests(call.root);
  return {
    languages,
    packages: packagesOf(manifests, files.map(([f]) => f), all),
    entry_points: entryPoints(call.root, manifests, files.map(([f, e]) => ({ file: f, language: e.language })), all),
    elements: all.filter((s) => !s.parent && !isTestPath(s.file, s.language)).flatMap((s) => element(s) ?? []),
    dependencies,
    test_patterns: testPatterns(testFiles, all),
    files: files.length,
    test_files: testFiles.length,
  };
}

/** Seed 002's CodeElement types: React-style `useX` functions are hooks, capitalised functions in .tsx/.jsx components. */
function element(s: CatalogSymbol): CodeElement | undefined {
  let type: ElementType | undefined;
  if (s.kind === 'function') {
    type = /^use[A-Z]/.test(s.name) && /\.[cm]?[jt]sx?$/.test(s.file) ? 'hook' : /^[A-Z]/.test(s.name) && /\.[jt]sx$/.test(s.file) ? 'component' : 'function';
  } else if (['class', 'struct', 'trait', 'enum', 'model'].includes(s.kind)) type = 'class';
  else if (s.kind === 'interface') type = 'interface';
  else if (s.kind === 'type') type = 'type';
  return type ? { name: s.name, type, file: s.file, line: s.selection_line, symbol_id: s.symbol_id } : undefined;
}

interface Manifests {
  pkg: Record<string, unknown> | undefined;
  composer: Record<string, unknown> | undefined;
  goMod: string | undefined;
  pyproject: string | undefined;
}

/** The root's manifests, read once per answer. */
function readManifests(root: string): Manifests {
  return {
    pkg: readJsonObjectIfAny(path.join(root, 'package.json')),
    composer: readJsonObjectIfAny(path.join(root, 'composer.json')),
    goMod: readTextIfAny(path.join(root, 'go.mod')),
    pyproject: readTextIfAny(path.join(root, 'pyproject.toml')),
  };
}

/** Root manifests (package.json, go.mod, pyproject.toml, composer.json), then Go packages, Python packages and PHP namespaces of the catalog. */
function packagesOf({ pkg, composer, goMod, pyproject }: Manifests, files: string[], all: CatalogSymbol[]): PackageInfo[] {
  const out: PackageInfo[] = [];
  if (typeof pkg?.name === 'string') out.push({ name: pkg.name, kind: 'npm', path: 'package.json' });
  const mod = /^module\s+(\S+)/m.exec(goMod ?? '')?.[1];
  if (mod) out.push({ name: mod, kind: 'go-module', path: 'go.mod' });
  const py = /^\[project\][^[]*?^name\s*=\s*["']([^"']+)["']/ms.exec(pyproject ?? '')?.[1];
  if (py) out.push({ name: py, kind: 'python-distribution', path: 'pyproject.toml' });
  if (typeof composer?.name === 'string') out.push({ name: composer.name, kind: 'composer', path: 'composer.json' });
  const goDirs = new Map<string, string>();
  const phpNs = new Map<string, string>();
  for (const s of all) {
    const dir = path.posix.dirname(s.file);
    if (s.language === 'go' && s.package && !goDirs.has(dir) && !s.file.endsWith('_test.go')) goDirs.set(dir, s.package);
    if (s.language === 'php' && s.namespace && !phpNs.has(s.namespace)) phpNs.set(s.namespace, dir);
  }
  for (const [dir, name] of [...goDirs].sort()) out.push({ name: mod ? (dir === '.' ? mod : `${mod}/${dir}`) : name, kind: 'go-package', path: dir });
  for (const f of files.filter((f) => path.posix.basename(f) === '__init__.py').sort()) {
    const dir = path.posix.dirname(f);
    out.push({ name: dir.split('/').join('.'), kind: 'python-package', path: dir });
  }
  for (const [ns, dir] of [...phpNs].sort()) out.push({ name: ns, kind: 'php-namespace', path: dir });
  return out;
}

/** Top-level `main`, Python `if __name__ == "__main__":` modules, package.json main/bin, composer.json bin. */
function entryPoints(root: string, { pkg, composer }: Manifests, files: { file: string; language: string }[], all: CatalogSymbol[]): EntryPoint[] {
  const out: EntryPoint[] = [];
  for (const s of all) {
    if (!s.parent && s.name === 'main' && (s.kind === 'function' || s.kind === 'method')) out.push({ file: s.file, line: s.selection_line, name: s.name, reason: 'top-level `main`' });
  }
  for (const f of files) {
    if (f.language !== 'python' || isTestPath(f.file, f.language)) continue;
    const lines = (readTextIfAny(path.join(root, f.file)) ?? '').split('\n');
    const i = lines.findIndex((l) => /^if\s+__name__\s*==\s*["']__main__["']\s*:/.test(l));
    if (i >= 0) out.push({ file: f.file, line: i + 1, reason: '`if __name__ == "__main__":` runs it as a script' });
  }
  const manifestFiles = (field: string, v: unknown): [string, string][] =>
    typeof v === 'string' ? [[v, field]] : Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string').map((x) => [x, field]) : v && typeof v === 'object' ? Object.values(v).flatMap((x) => manifestFiles(field, x)) : [];
  const declared = [...manifestFiles('package.json main', pkg?.main), ...manifestFiles('package.json bin', pkg?.bin), ...manifestFiles('package.json exports', pkg?.exports), ...manifestFiles('composer.json bin', composer?.bin)];
  for (const [file, why] of declared) out.push({ file: path.posix.normalize(file.replace(/^\.\//, '')), reason: why });
  return out.sort((a, b) => a.file.localeCompare(b.file) || (a.line ?? 0) - (b.line ?? 0));
}

/** Test files grouped by the runner convention that makes them tests; usage = test files, plus their test declarations in the description. */
function testPatterns(tests: { file: string; language: string }[], all: CatalogSymbol[]): Record<string, PatternInfo> {
  const decls = new Map<string, number>();
  for (const s of all) {
    if ((s.kind === 'function' || s.kind === 'method') && /^(Test|Benchmark|Example|Fuzz|test)/.test(s.name)) decls.set(s.file, (decls.get(s.file) ?? 0) + 1);
  }
  const out: Record<string, PatternInfo> = {};
  for (const t of tests) {
    const c = testConvention(t.file, t.language);
    const p = (out[c] ??= { files: [], usage: 0, description: '' });
    p.files.push(t.file);
    p.usage++;
  }
  for (const [name, p] of Object.entries(out)) {
    const n = p.files.reduce((k, f) => k + (decls.get(f) ?? 0), 0);
    p.description = `${TEST_CONVENTIONS[name as keyof typeof TEST_CONVENTIONS]}; ${p.usage} file(s), ${n} test function(s) by name`;
  }
  return out;
}
