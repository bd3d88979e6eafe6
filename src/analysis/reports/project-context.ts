/**
 * project_context (its ProjectContext output): what an agent needs before touching a workspace — its
 * languages, packages and entry points, its top-level elements (the catalog), the module dependency
 * map (the import graph, as the language servers resolve imports) and how its tests are laid out.
 * Everything comes from the catalog, the import graph and the manifests; nothing is guessed.
 */
import path from 'node:path';

import { boundedScriptEntries } from '../../adapters/file-structure.js';
import type { ManifestReader, ProjectPackage, ProjectRules } from '../../adapters/language-profile.js';
import { languageProfiles, profileOf } from '../../adapters/languages.js';
import { isTestFunctionName, isTestPath, TEST_DIRECTORY, testConvention, testConventionDescription } from '../../adapters/test-files.js';
import type { CatalogSymbol } from '../../core/catalog.js';
import { toLspgateError } from '../../errors/errors.js';
import type { ServiceCall } from '../../service/call.js';
import { type ReadBound, readTextIfAny } from '../../util/optional-files.js';
import { importGraph, noteGraphSkips } from '../imports/import-graph.js';
import { manifestBound, manifestReader } from '../manifests.js';
import { addCatalogErrors, skipsOf } from '../skips.js';

export type ElementType = 'function' | 'class' | 'component' | 'hook' | 'interface' | 'type';

export interface CodeElement {
  name: string;
  type: ElementType;
  file: string;
  line: number;
  symbol_id: string;
}

/** Every language's package kinds (npm, go-module, go-package, python-distribution …), in registry order. */
export const PACKAGE_KINDS = [...new Set(languageProfiles().flatMap((p) => p.project.packageKinds))] as [string, ...string[]];

export type PackageInfo = ProjectPackage;

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
  const listed = files.map(([file, e]) => ({ file, language: e.language }));
  const testFiles = listed.filter((f) => isTestPath(f.file, f.language));
  const bound = manifestBound(call);
  const manifests = manifestReader(call.root, bound);
  return {
    languages,
    packages: packagesOf(manifests, listed, all),
    entry_points: await entryPoints(call, bound, manifests, listed, all),
    elements: all.filter((s) => !s.parent && !isTestPath(s.file, s.language)).flatMap((s) => element(s) ?? []),
    dependencies,
    test_patterns: testPatterns(testFiles, all),
    files: files.length,
    test_files: testFiles.length,
  };
}

/** The element types the reports name (function, class, interface, type): the language's own names for functions (React hooks and components), classes, interfaces, types. */
function element(s: CatalogSymbol): CodeElement | undefined {
  let type: ElementType | undefined;
  if (s.kind === 'function') type = profileOf(s.file, s.language)?.declarations.elementType?.(s, s.file) ?? 'function';
  else if (['class', 'struct', 'trait', 'enum', 'model'].includes(s.kind)) type = 'class';
  else if (s.kind === 'interface') type = 'interface';
  else if (s.kind === 'type') type = 'type';
  return type ? { name: s.name, type, file: s.file, line: s.selection_line, symbol_id: s.symbol_id } : undefined;
}

/**
 * The project rules of every language, each once: languages that read the same manifests share their
 * rules (TypeScript and JavaScript: package.json), even where one adds to them (TypeScript's tsconfig
 * scope), so a manifest's packages and entry points are listed once.
 */
function projectRules(): ProjectRules[] {
  const byManifests = new Map<unknown, ProjectRules>();
  for (const { project } of languageProfiles()) if (!byManifests.has(project.manifests ?? project)) byManifests.set(project.manifests ?? project, project);
  return [...byManifests.values()];
}

/** Root manifests (package.json, go.mod, pyproject.toml, composer.json), then each language's packages in the catalog (Go packages, Python packages, PHP namespaces). */
function packagesOf(m: ManifestReader, files: { file: string; language: string }[], all: CatalogSymbol[]): PackageInfo[] {
  const out: PackageInfo[] = [];
  for (const rules of projectRules()) out.push(...(rules.manifestPackages?.(m) ?? []));
  for (const p of languageProfiles()) {
    if (!p.project.catalogPackages) continue;
    const own = (file: string, language: string) => profileOf(file, language) === p;
    const symbols = all.filter((s) => own(s.file, s.language));
    out.push(
      ...p.project.catalogPackages(
        symbols,
        files.filter((f) => own(f.file, f.language)).map((f) => f.file),
        m,
      ),
    );
  }
  return out;
}

/** Top-level `main`, scripts by their language's rule (Python `if __name__ == "__main__":`), and the files manifests declare (package.json main/bin/exports, composer.json bin). */
async function entryPoints(
  call: ServiceCall,
  bound: ReadBound,
  m: ManifestReader,
  files: { file: string; language: string }[],
  all: CatalogSymbol[],
): Promise<EntryPoint[]> {
  const out: EntryPoint[] = [];
  for (const s of all) {
    if (!s.parent && s.name === 'main' && (s.kind === 'function' || s.kind === 'method'))
      out.push({ file: s.file, line: s.selection_line, name: s.name, reason: 'top-level `main`' });
  }
  for (const f of files) {
    if (!profileOf(f.file, f.language)?.syntax.scriptEntry || isTestPath(f.file, f.language)) continue;
    // the statement that runs it, read from its parse tree
    // in a syntax worker within the parse bounds: a file over them is named in a warning, the rest answered
    const found = await boundedScriptEntries(f.file, readTextIfAny(path.join(call.root, f.file), bound) ?? '', call.env.limits, call.signal).catch(
      (e: unknown) => {
        const err = toLspgateError(e);
        if (err.code !== 'TIMEOUT' && err.code !== 'LIMIT_EXCEEDED') throw err;
        call.meta.warn(`${err.message} (${err.code}): its script entry points are not listed`);
        return undefined;
      },
    );
    for (const x of found ?? []) out.push({ file: f.file, line: x.line, reason: x.reason });
  }
  for (const rules of projectRules()) out.push(...(rules.manifestEntryPoints?.(m) ?? []));
  return out.sort((a, b) => a.file.localeCompare(b.file) || (a.line ?? 0) - (b.line ?? 0));
}

/** Test files grouped by the convention that makes them tests; usage = test files, plus their test declarations (by the runners' naming rules) in the description. */
function testPatterns(tests: { file: string; language: string }[], all: CatalogSymbol[]): Record<string, PatternInfo> {
  const decls = new Map<string, number>();
  for (const s of all) {
    if ((s.kind === 'function' || s.kind === 'method') && isTestFunctionName(s.name, profileOf(s.file, s.language)))
      decls.set(s.file, (decls.get(s.file) ?? 0) + 1);
  }
  const out: Record<string, PatternInfo> = {};
  for (const t of tests) {
    const c = testConvention(t.file, t.language) ?? TEST_DIRECTORY;
    const p = (out[c] ??= { files: [], usage: 0, description: '' });
    p.files.push(t.file);
    p.usage++;
  }
  for (const [name, p] of Object.entries(out)) {
    const n = p.files.reduce((k, f) => k + (decls.get(f) ?? 0), 0);
    p.description = `${testConventionDescription(name)}; ${p.usage} file(s), ${n} test function(s) by name`;
  }
  return out;
}
