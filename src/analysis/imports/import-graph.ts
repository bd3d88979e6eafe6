/**
 * The workspace's file-level import graph: every cataloged file's imports (import-scan.ts),
 * resolved by its language server (import-resolve.ts), with the reverse index (who imports a file).
 * Built once per catalog version and kept per workspace: when the catalog changes, only files whose
 * content hash changed are scanned and resolved again; when a file appeared or went, also the files
 * whose imports were unresolved or pointed at a file that is gone (only then can they point elsewhere).
 */
import path from 'node:path';
import { LspgateError } from '../../errors/errors.js';
import type { Catalog } from '../../core/catalog.js';
import type { ServiceCall } from '../../service/call.js';
import { syntaxOf } from '../../adapters/languages.js';
import { isRunnerTestFile } from '../../adapters/test-files.js';
import { resolveFileImports, type FileImports, type ResolvedImport } from './import-resolve.js';
import { asBackground, yieldToEventLoop } from '../../util/work-class.js';

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
  /** The files the graph was built over: a file added or removed can change unresolved imports. */
  present: Set<string>;
  /** Files that failed (TIMEOUT...), by content hash: asked again when they change or a file comes or goes. */
  failedHashes: Map<string, string>;
}

const cache = new WeakMap<Catalog, Cached>();
const building = new WeakMap<Catalog, Promise<ImportGraph>>();

/** Files resolved at once (each with up to 4 definition requests in flight, import-resolve.ts). */
const RESOLVE_CONCURRENCY = 2;

/** The import graph of the call's workspace, fresh for the current catalog version. */
export async function importGraph(call: ServiceCall): Promise<ImportGraph> {
  const catalog = call.workspace.catalog;
  let p = building.get(catalog);
  if (!p) {
    // Building the graph is bulk work (a definition request per import of every file): its requests
    // queue behind interactive ones and never take a session's last free slot (semaphore.ts).
    p = asBackground(() => build(call)).finally(() => building.delete(catalog));
    building.set(catalog, p);
  }
  const graph = await p;
  // Every answer built on an incomplete graph says so, not only the one that built it.
  if (graph.failed.size) call.meta.warn(`${graph.failed.size} file(s) left out of the import graph (${[...new Set(graph.failed.values())].join(', ')}); asked again when they change`);
  return graph;
}

async function build(call: ServiceCall): Promise<ImportGraph> {
  const catalog = call.workspace.catalog;
  // A watched catalog is kept fresh by its watcher: wait for the changes it saw, not a new build
  // (a build walks the tree, spawns git and writes the snapshot: ~3 s per query on 500 files, loaded).
  if (catalog.watching) await catalog.settled();
  else await catalog.build({ ...(call.signal ? { signal: call.signal } : {}) });
  const prev = cache.get(catalog);
  if (prev && prev.version !== undefined && prev.version === catalog.version) return prev.graph;
  const listed = [...catalog.files()].map(([file, e]) => ({ file, hash: e.hash })).filter((f) => syntaxOf(f.file));
  listed.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  const present = new Set(listed.map((f) => f.file));
  const setChanged = !prev || prev.present.size !== present.size || listed.some((f) => !prev.present.has(f.file));
  const entries = new Map<string, { hash: string; imports: FileImports } | undefined>();
  const todo: { file: string; hash: string }[] = [];
  const failed = new Map<string, string>();
  for (const f of listed) {
    // A file that failed (a TIMEOUT under load) is not asked again on every update: only once it
    // changed or the file set did; until then answers warn that it is left out.
    const failedCode = prev?.graph.failed.get(f.file);
    if (failedCode && !setChanged && prev?.failedHashes.get(f.file) === f.hash) {
      failed.set(f.file, failedCode);
      continue;
    }
    const old = prev?.entries.get(f.file);
    // Unchanged content keeps its imports; unresolved ones are asked again only when a file
    // appeared or went (nothing else can make them resolve).
    if (old && old.hash === f.hash && !(setChanged && old.imports.imports.some((i) => stale(i, present)))) entries.set(f.file, old);
    else {
      entries.set(f.file, undefined); // keeps the path order
      todo.push(f);
    }
  }
  for (const [file, code] of await resolveAll(call, todo, entries)) failed.set(file, code);
  const kept = new Map<string, { hash: string; imports: FileImports }>();
  for (const [file, e] of entries) if (e) kept.set(file, e);
  const graph = assemble(kept, failed);
  const hashes = new Map(listed.map((f) => [f.file, f.hash]));
  const failedHashes = new Map([...failed.keys()].map((f) => [f, hashes.get(f)!]));
  cache.set(catalog, { version: catalog.version, graph, entries: kept, present, failedHashes });
  return graph;
}

/** Scans and resolves `todo`, a few files at once; a failure is recorded per file, cancellation ends all. */
async function resolveAll(call: ServiceCall, todo: { file: string; hash: string }[], entries: Map<string, { hash: string; imports: FileImports } | undefined>): Promise<Map<string, string>> {
  const failed = new Map<string, string>();
  let next = 0;
  const worker = async () => {
    while (next < todo.length) {
      const { file, hash } = todo[next++]!;
      // between files, whatever else the process has to do (an interactive answer) runs first
      await yieldToEventLoop();
      try {
        const imports = await resolveFileImports(call, file);
        if (imports) entries.set(file, { hash, imports });
      } catch (e) {
        if (!(e instanceof LspgateError) || e.code === 'CANCELLED') throw e;
        failed.set(file, e.code);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(RESOLVE_CONCURRENCY, todo.length) }, worker));
  return failed;
}

function stale(imp: ResolvedImport, present: Set<string>): boolean {
  return imp.status === 'unresolved' || (imp.status === 'workspace' && imp.target !== undefined && !present.has(imp.target) && syntaxOf(imp.target) !== undefined);
}

/** An import names a directory (Go: a package), so its definition lands on one file of it (gopls: the one with the package doc). */
const namesDirectory = (file: string) => syntaxOf(file)?.profile.syntax.imports?.namesDirectory === true;

/** Such an import reaches every file of that directory the package is built from (not its `_test.go` files). */
function packageFiles(target: string, byDir: Map<string, string[]>): string[] | undefined {
  if (!namesDirectory(target)) return undefined;
  return byDir.get(path.posix.dirname(target)) ?? [];
}

/** Package files per directory, for the languages whose imports name directories (one pass, not one scan of every file per import). */
function packageFilesByDir(files: Iterable<string>): Map<string, string[]> {
  const byDir = new Map<string, string[]>();
  for (const f of files) {
    if (!namesDirectory(f) || isRunnerTestFile(f)) continue;
    const dir = path.posix.dirname(f);
    const list = byDir.get(dir);
    if (list) list.push(f);
    else byDir.set(dir, [f]);
  }
  return byDir;
}

function assemble(entries: Map<string, { hash: string; imports: FileImports }>, failed: Map<string, string>): ImportGraph {
  const files = new Map<string, FileImports>();
  const importers = new Map<string, { file: string; imp: ResolvedImport }[]>();
  const byDir = packageFilesByDir(entries.keys());
  for (const [file, { imports }] of entries) {
    files.set(file, imports);
    for (const imp of imports.imports) {
      if (imp.status !== 'workspace' || !imp.target) continue;
      const pkg = packageFiles(imp.target, byDir);
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
