/**
 * The workspace's file-level import graph: every cataloged file's imports (import-scan.ts),
 * resolved by its language server (import-resolve.ts), with the reverse index (who imports a file).
 * Built once per catalog version and kept per workspace: when the catalog changes, only files whose
 * content hash changed are scanned and resolved again; when a file appeared or went, also the files
 * whose imports were unresolved or pointed at a file that is gone (only then can they point elsewhere).
 */
import path from 'node:path';
import { toLspgateError } from '../../errors/errors.js';
import type { Catalog } from '../../core/catalog.js';
import type { ServiceCall } from '../../service/call.js';
import { grammarFor } from '../../syntax/syntax.js';
import { resolveFileImports, type FileImports, type ResolvedImport } from './import-resolve.js';
import { asBackground, yieldToEventLoop } from '../../util/work-class.js';
import { skipsOf } from '../skips.js';

export interface ImportGraph {
  /** Imports per importing file (workspace-relative). */
  readonly files: ReadonlyMap<string, FileImports>;
  /** Workspace file → the imports (of other files) that resolve to it. */
  readonly importers: ReadonlyMap<string, { file: string; imp: ResolvedImport }[]>;
  /** Files that could not be read or resolved, with the error: never dropped silently. */
  readonly failed: ReadonlyMap<string, GraphFailure>;
}

export interface GraphFailure {
  code: string;
  message: string;
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
  return p;
}

/**
 * Files of the graph an answer depends on that are left out of it (every file by default: any of
 * them could import the target), added to the call's `skipped`: every answer built on an incomplete
 * graph says so, not only the one that built it. Such files are asked again when they change.
 */
export function noteGraphSkips(call: ServiceCall, graph: ImportGraph, files?: Iterable<string>): void {
  const skips = skipsOf(call);
  const add = (file: string) => {
    const f = graph.failed.get(file);
    if (f) skips.add(file, f.code, `left out of the import graph: ${f.message}`);
  };
  if (files) for (const file of files) add(file);
  else for (const file of graph.failed.keys()) add(file);
}

async function build(call: ServiceCall): Promise<ImportGraph> {
  const catalog = call.workspace.catalog;
  // A watched catalog is kept fresh by its watcher: wait for the changes it saw, not a new build
  // (a build walks the tree, spawns git and writes the snapshot: ~3 s per query on 500 files, loaded).
  if (catalog.watching) await catalog.settled();
  else await catalog.build({ ...(call.signal ? { signal: call.signal } : {}) });
  const prev = cache.get(catalog);
  if (prev && prev.version !== undefined && prev.version === catalog.version) return prev.graph;
  const listed = [...catalog.files()].map(([file, e]) => ({ file, hash: e.hash })).filter((f) => grammarFor(f.file));
  listed.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  const present = new Set(listed.map((f) => f.file));
  const setChanged = !prev || prev.present.size !== present.size || listed.some((f) => !prev.present.has(f.file));
  const entries = new Map<string, { hash: string; imports: FileImports } | undefined>();
  const todo: { file: string; hash: string }[] = [];
  const failed = new Map<string, GraphFailure>();
  for (const f of listed) {
    // A file that failed (a TIMEOUT under load) is not asked again on every update: only once it
    // changed or the file set did; until then answers warn that it is left out.
    const failedBefore = prev?.graph.failed.get(f.file);
    if (failedBefore && !setChanged && prev?.failedHashes.get(f.file) === f.hash) {
      failed.set(f.file, failedBefore);
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
  for (const [file, failure] of await resolveAll(call, todo, entries)) failed.set(file, failure);
  const kept = new Map<string, { hash: string; imports: FileImports }>();
  for (const [file, e] of entries) if (e) kept.set(file, e);
  const graph = assemble(kept, failed);
  const hashes = new Map(listed.map((f) => [f.file, f.hash]));
  const failedHashes = new Map([...failed.keys()].map((f) => [f, hashes.get(f)!]));
  cache.set(catalog, { version: catalog.version, graph, entries: kept, present, failedHashes });
  return graph;
}

/**
 * Scans and resolves `todo`, a few files at once; a failure is recorded per file (a server's error
 * answer, a timeout, a syntax query that does not compile for the file's grammar), cancellation ends all.
 */
async function resolveAll(call: ServiceCall, todo: { file: string; hash: string }[], entries: Map<string, { hash: string; imports: FileImports } | undefined>): Promise<Map<string, GraphFailure>> {
  const failed = new Map<string, GraphFailure>();
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
        const err = toLspgateError(e);
        if (err.code === 'CANCELLED') throw err;
        failed.set(file, { code: err.code, message: err.message });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(RESOLVE_CONCURRENCY, todo.length) }, worker));
  return failed;
}

function stale(imp: ResolvedImport, present: Set<string>): boolean {
  return imp.status === 'unresolved' || (imp.status === 'workspace' && imp.target !== undefined && !present.has(imp.target) && grammarFor(imp.target) !== undefined);
}

/**
 * A Go import names a package, and gopls answers its definition with one file of it (the one with
 * the package doc): the import reaches every non-test file of that directory.
 */
function goPackageFiles(target: string, byDir: Map<string, string[]>): string[] | undefined {
  if (!target.endsWith('.go')) return undefined;
  return byDir.get(path.posix.dirname(target)) ?? [];
}

/** Non-test Go files per directory (one pass, not one scan of every file per import). */
function goFilesByDir(files: Iterable<string>): Map<string, string[]> {
  const byDir = new Map<string, string[]>();
  for (const f of files) {
    if (!f.endsWith('.go') || f.endsWith('_test.go')) continue;
    const dir = path.posix.dirname(f);
    const list = byDir.get(dir);
    if (list) list.push(f);
    else byDir.set(dir, [f]);
  }
  return byDir;
}

function assemble(entries: Map<string, { hash: string; imports: FileImports }>, failed: Map<string, GraphFailure>): ImportGraph {
  const files = new Map<string, FileImports>();
  const importers = new Map<string, { file: string; imp: ResolvedImport }[]>();
  const byDir = goFilesByDir(entries.keys());
  for (const [file, { imports }] of entries) {
    files.set(file, imports);
    for (const imp of imports.imports) {
      if (imp.status !== 'workspace' || !imp.target) continue;
      const pkg = goPackageFiles(imp.target, byDir);
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
