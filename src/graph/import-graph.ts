/**
 * The workspace's file-level import graph: every cataloged file's imports (import-scan.ts),
 * resolved by its language server (import-resolve.ts), with the reverse index (who imports a file).
 * Built once per catalog version and kept per workspace: when the catalog changes, only files whose
 * content hash changed are scanned and resolved again, plus files whose imports were unresolved or
 * pointed at a file that is gone (a new or removed file can change where they point).
 */
import path from 'node:path';
import { LspgateError } from '../errors/errors.js';
import type { Catalog } from '../core/catalog.js';
import type { ServiceCall } from '../service/call.js';
import { grammarFor } from './syntax.js';
import { resolveFileImports, type FileImports, type ResolvedImport } from './import-resolve.js';

export interface ImportGraph {
  /** Imports per importing file (workspace-relative). */
  readonly files: ReadonlyMap<string, FileImports>;
  /** Workspace file → the imports (of other files) that resolve to it. */
  readonly importers: ReadonlyMap<string, { file: string; imp: ResolvedImport }[]>;
  /** Files that could not be read or resolved, with the error code: never dropped silently. */
  readonly failed: ReadonlyMap<string, string>;
}

interface Cached {
  version: number | undefined;
  graph: ImportGraph;
  entries: Map<string, { hash: string; imports: FileImports }>;
}

const cache = new WeakMap<Catalog, Cached>();
const building = new WeakMap<Catalog, Promise<ImportGraph>>();

/** The import graph of the call's workspace, fresh for the current catalog version. */
export function importGraph(call: ServiceCall): Promise<ImportGraph> {
  const catalog = call.workspace.catalog;
  let p = building.get(catalog);
  if (!p) {
    p = build(call).finally(() => building.delete(catalog));
    building.set(catalog, p);
  }
  return p;
}

async function build(call: ServiceCall): Promise<ImportGraph> {
  const catalog = call.workspace.catalog;
  await catalog.build({ ...(call.signal ? { signal: call.signal } : {}) });
  const prev = cache.get(catalog);
  if (prev && prev.version !== undefined && prev.version === catalog.version) return prev.graph;
  const listed = [...catalog.files()].map(([file, e]) => ({ file, hash: e.hash })).filter((f) => grammarFor(f.file));
  const present = new Set(listed.map((f) => f.file));
  const entries = new Map<string, { hash: string; imports: FileImports }>();
  const failed = new Map<string, string>();
  for (const { file, hash } of listed.sort((a, b) => a.file.localeCompare(b.file))) {
    const old = prev?.entries.get(file);
    if (old && old.hash === hash && !old.imports.imports.some((i) => stale(i, present))) {
      entries.set(file, old);
      continue;
    }
    try {
      const imports = await resolveFileImports(call, file);
      if (imports) entries.set(file, { hash, imports });
    } catch (e) {
      if (!(e instanceof LspgateError) || e.code === 'CANCELLED') throw e;
      failed.set(file, e.code);
    }
  }
  if (failed.size) call.meta.warn(`${failed.size} file(s) left out of the import graph (${[...new Set(failed.values())].join(', ')})`);
  const graph = assemble(entries, failed);
  cache.set(catalog, { version: catalog.version, graph, entries });
  return graph;
}

function stale(imp: ResolvedImport, present: Set<string>): boolean {
  return imp.status === 'unresolved' || (imp.status === 'workspace' && imp.target !== undefined && !present.has(imp.target) && grammarFor(imp.target) !== undefined);
}

/**
 * A Go import names a package, and gopls answers its definition with one file of it (the one with
 * the package doc): the import reaches every non-test file of that directory.
 */
function goPackageFiles(target: string, all: string[]): string[] | undefined {
  if (!target.endsWith('.go')) return undefined;
  const dir = path.posix.dirname(target);
  return all.filter((f) => f.endsWith('.go') && !f.endsWith('_test.go') && path.posix.dirname(f) === dir);
}

function assemble(entries: Map<string, { hash: string; imports: FileImports }>, failed: Map<string, string>): ImportGraph {
  const files = new Map<string, FileImports>();
  const importers = new Map<string, { file: string; imp: ResolvedImport }[]>();
  const all = [...entries.keys()];
  for (const [file, { imports }] of entries) {
    files.set(file, imports);
    for (const imp of imports.imports) {
      if (imp.status !== 'workspace' || !imp.target) continue;
      const pkg = goPackageFiles(imp.target, all);
      if (pkg) {
        imp.target_package = path.posix.dirname(imp.target);
        imp.target_files = pkg;
      }
      for (const target of imp.target_files ?? [imp.target]) {
        if (target === file) continue;
        let list = importers.get(target);
        if (!list) importers.set(target, (list = []));
        list.push({ file, imp });
      }
    }
  }
  return { files, importers, failed };
}
