/**
 * The workspace's file-level import graph: every cataloged file's imports (import-scan.ts),
 * resolved by its language server (import-resolve.ts), with the reverse index (who imports a file).
 * Derived state of the workspace (kept in its catalog's DerivedState, dropped with it), it learns of
 * changes from the catalog's change feed: a changed file is marked stale at once, and the next
 * answer that needs the graph scans and resolves again only the stale files — plus, when a file
 * appeared or went, the files whose imports were unresolved or pointed at a file that is gone (only
 * then can they point elsewhere). Comparing every entry's content hash with the one its imports were
 * resolved at stays as the cheap safety net behind the feed.
 */
import path from 'node:path';

import { syntaxOf } from '../../adapters/languages.js';
import { isRunnerTestFile } from '../../adapters/test-files.js';
import type { CatalogChanges, Derived, DerivedKey } from '../../core/catalog.js';
import type { Workspace } from '../../core/workspace.js';
import { toLspgateError } from '../../errors/errors.js';
import type { ServiceCall } from '../../service/call.js';
import { withTransientDocument } from '../../service/held-documents.js';
import { asBackground, yieldToEventLoop } from '../../util/work-class.js';
import { skipsOf } from '../skips.js';
import { type FileImports, type ResolvedImport, resolveFileImports } from './import-resolve.js';

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
  /** The servers' generations when the build began: a server restarted since (it hung) is asked again. */
  generations: string;
}

/** One workspace's graph: the last one built, the build running, and what the feed said changed since. */
export class GraphState implements Derived {
  cached: Cached | undefined;
  building: Promise<ImportGraph> | undefined;
  /** Files the feed said changed (or came, or went) since the graph was built. */
  readonly stale = new Set<string>();
  /** A file came or went since the graph was built: unresolved imports may resolve now. */
  setChanged = false;
  /** The build running: its files so far (undefined: not yet resolved), for an answer its deadline cuts. */
  progress: { entries: Map<string, { hash: string; imports: FileImports } | undefined>; failed: Map<string, GraphFailure> } | undefined;
  private readonly unsubscribe: () => void;

  constructor(ws: Workspace) {
    this.unsubscribe = ws.catalog.changes.subscribe((batch) => this.onChanges(batch));
  }

  private onChanges(batch: CatalogChanges): void {
    if (batch.reset) {
      this.cached = undefined;
      this.stale.clear();
      return;
    }
    for (const c of batch.changes) {
      // imports are read from the bytes: a new entry for the same bytes changes none
      if (c.entryOnly) continue;
      this.stale.add(c.rel);
      if (c.kind !== 'changed') this.setChanged = true;
    }
  }

  bytes(): number {
    let n = 0;
    // per import: its specifier, target and status strings, counted twice (files and importers)
    for (const e of this.cached?.entries.values() ?? []) n += 200 + 2 * 300 * e.imports.imports.length;
    return n;
  }

  dispose(): void {
    this.unsubscribe();
  }
}

const GRAPH: DerivedKey<GraphState> = { name: 'import_graph' };

/** The workspace's graph state, made (listening to the feed) on first use. */
export function graphStateOf(ws: Workspace): GraphState {
  return ws.catalog.derived.get(GRAPH, () => new GraphState(ws));
}

/** Files resolved at once (each with up to 4 definition requests in flight, import-resolve.ts). */
const RESOLVE_CONCURRENCY = 2;

/** The import graph of the call's workspace, fresh for the current catalog version. */
export async function importGraph(call: ServiceCall): Promise<ImportGraph> {
  const state = graphStateOf(call.workspace);
  let p = state.building;
  if (!p) {
    // Building the graph is bulk work (a definition request per import of every file): its requests
    // queue behind interactive ones and never take a session's last free slot (semaphore.ts).
    p = asBackground(() => build(call, state)).finally(() => (state.building = undefined));
    state.building = p;
  }
  return p;
}

/**
 * The graph by the call's deadline (`max_ms`): past it, the files resolved so far, the rest said
 * first (the build goes on, and the next answer has them).
 */
export async function importGraphWithin(call: ServiceCall): Promise<ImportGraph> {
  const p = importGraph(call);
  const deadline = call.deadline;
  if (!deadline) return p;
  const done = await deadline.race(p);
  if (done) return done.value;
  const state = graphStateOf(call.workspace);
  const progress = state.progress;
  if (!progress) {
    const last = state.cached?.graph;
    deadline.cut(call.meta, `the import graph ${last ? 'as last built: changes since' : 'of every file'} not resolved yet (its build goes on: ask again)`);
    return last ?? assemble(new Map(), new Map());
  }
  const kept = new Map<string, { hash: string; imports: FileImports }>();
  let pending = 0;
  for (const [file, e] of progress.entries) {
    if (e) kept.set(file, e);
    else if (!progress.failed.has(file)) pending++;
  }
  deadline.cut(call.meta, `the imports of ${pending} of ${progress.entries.size} files not resolved yet (resolving goes on: ask again)`);
  return assemble(kept, new Map(progress.failed));
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

async function build(call: ServiceCall, state: GraphState): Promise<ImportGraph> {
  const catalog = call.workspace.catalog;
  // Every file cataloged, never a build half-way (its watcher starts before its files are parsed, and
  // the graph of a half-built or dropped catalog answered 5 of 15 importers, or 0, as `ready`); a
  // watched catalog is not walked again (~3 s per query on 500 files, loaded).
  await catalog.complete(call.signal ? { signal: call.signal } : {});
  const prev = state.cached;
  const generations = serverGenerations(call);
  // the feed said nothing changed, and the version proves it (and no server that failed files restarted)
  if (
    prev &&
    state.stale.size === 0 &&
    !state.setChanged &&
    prev.version === catalog.version &&
    (prev.graph.failed.size === 0 || prev.generations === generations)
  )
    return prev.graph;
  // what the feed reported is taken now: changes arriving while this build runs stay for the next
  const stale = new Set(state.stale);
  state.stale.clear();
  state.setChanged = false;
  // A file no server is configured for (CSS, a shell script) has no import a server could resolve:
  // it is not part of the graph, rather than a file left out of every answer with an install hint.
  const listed = [...catalog.files()]
    .map(([file, e]) => ({ file, hash: e.hash }))
    .filter((f) => syntaxOf(f.file) && catalog.serverless(f.file) !== 'NO_SERVER');
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
    if (failedBefore && !setChanged && !stale.has(f.file) && prev?.failedHashes.get(f.file) === f.hash && prev.generations === generations) {
      failed.set(f.file, failedBefore);
      continue;
    }
    const old = prev?.entries.get(f.file);
    // Unchanged content keeps its imports (the feed did not name it, and its hash is the one they
    // were resolved at); unresolved ones are asked again only when a file appeared or went (nothing
    // else can make them resolve).
    if (old && !stale.has(f.file) && old.hash === f.hash && !(setChanged && old.imports.imports.some((i) => mayPointElsewhere(i, present))))
      entries.set(f.file, old);
    else {
      entries.set(f.file, undefined); // keeps the path order
      todo.push(f);
    }
  }
  state.progress = { entries, failed };
  try {
    await resolveAll(call, todo, entries, failed);
  } finally {
    state.progress = undefined;
  }
  const kept = new Map<string, { hash: string; imports: FileImports }>();
  for (const [file, e] of entries) if (e) kept.set(file, e);
  const graph = assemble(kept, failed);
  const hashes = new Map(listed.map((f) => [f.file, f.hash]));
  const failedHashes = new Map([...failed.keys()].map((f) => [f, hashes.get(f)!]));
  state.cached = { version: catalog.version, graph, entries: kept, present, failedHashes, generations };
  return graph;
}

/**
 * Which server processes the workspace's sessions run: files that failed under a server that hung
 * and was restarted since (a TIMEOUT per file, then SERVER_CRASHED) are asked again of its successor
 * instead of staying left out until they change.
 */
function serverGenerations(call: ServiceCall): string {
  const root = call.workspace.root;
  return call.env.broker
    .existing()
    .filter((s) => s.root === root)
    .map((s) => `${s.serverId}:${s.generation}`)
    .sort()
    .join(',');
}

/**
 * Scans and resolves `todo`, a few files at once; a failure is recorded per file (a server's error
 * answer, a timeout, a syntax query that does not compile for the file's grammar), cancellation ends all.
 */
async function resolveAll(
  call: ServiceCall,
  todo: { file: string; hash: string }[],
  entries: Map<string, { hash: string; imports: FileImports } | undefined>,
  failed: Map<string, GraphFailure>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < todo.length) {
      const { file, hash } = todo[next++]!;
      // between files, whatever else the process has to do (an interactive answer) runs first
      await yieldToEventLoop();
      try {
        const abs = call.resolvePath(file, { expect: 'file' });
        // opened for its definitions only, and closed after (tsserver re-checks its project for every open file)
        const session = await call.env.broker.sessionFor(abs, call.root);
        const imports = await withTransientDocument(session, abs, () => resolveFileImports(call, abs, file));
        if (imports) entries.set(file, { hash, imports });
      } catch (e) {
        const err = toLspgateError(e);
        if (err.code === 'CANCELLED') throw err;
        failed.set(file, { code: err.code, message: err.message });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(RESOLVE_CONCURRENCY, todo.length) }, worker));
}

function mayPointElsewhere(imp: ResolvedImport, present: Set<string>): boolean {
  return (
    imp.status === 'unresolved' || (imp.status === 'workspace' && imp.target !== undefined && !present.has(imp.target) && syntaxOf(imp.target) !== undefined)
  );
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

function assemble(entries: Map<string, { hash: string; imports: FileImports }>, failed: Map<string, GraphFailure>): ImportGraph {
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
