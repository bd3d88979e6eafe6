/**
 * query_relationships (input → output: operations/defs and contracts/relationships.ts): calls / calls-me from the call tree
 * (call hierarchy, or the references fallback where a server has none), imports / imports-me from
 * the resolved import graph, depends-on / depends-on-me as the union of both at file level, each
 * followed to `max_depth`. Never by name matching: every edge is a server's answer.
 */
import { QUERY_TYPES } from '../../schema/vocabularies.js';
import type { ServiceCall } from '../../service/call.js';
import { Limiter } from '../../service/cataloging/limiter.js';
import { type CallNode, callTree } from '../../service/navigation/call-tree.js';
import { type ImportGraph, importGraphWithin, noteGraphSkips } from '../imports/import-graph.js';
import type { ImportStatus } from '../imports/import-resolve.js';
import { skipsOf } from '../skips.js';
import { parseTarget, resolveSymbolTarget, targetFile } from '../target.js';
import { fileCallEdges } from './file-calls.js';

export { QUERY_TYPES };
export type QueryType = (typeof QUERY_TYPES)[number];

export interface Relationship {
  from: string;
  to: string;
  type: 'import' | 'call' | 'dependency';
  /** Where the relationship is written (the caller's file, the importing file). */
  file: string;
  line?: number;
  /** 1 for direct relationships of the target, n for those found n steps away. */
  depth: number;
  from_symbol_id?: string;
  to_symbol_id?: string;
  /** Imports: where the specifier resolved (workspace file, outside the workspace, nowhere). */
  status?: ImportStatus;
  specifier?: string;
  /** Dependencies: what the file-level edge is made of. */
  via?: ('import' | 'call')[];
  /** Calls: how many paths of the walk reached this edge, when more than one. */
  paths?: number;
}

/** Internal cap on the nodes one query walks; the answer pages over what it found. */
export const WALK_BUDGET = 5000;

export async function queryRelationships(
  call: ServiceCall,
  input: { query_type: QueryType; target: string; max_depth: number },
): Promise<{ target: string; results: Relationship[] }> {
  const parsed = parseTarget(call, input.target);
  if (input.query_type === 'calls' || input.query_type === 'calls-me') {
    // the whole catalog first: callers in files the server's project leaves out are found through it (mentions.ts)
    await catalogBuilt(call);
    const t = await resolveSymbolTarget(call, parsed, input.query_type);
    const incoming = input.query_type === 'calls-me';
    const tree = await callTree(
      call,
      {
        ...(t.catalog ? { symbol_id: t.catalog.symbol_id } : { file: t.file.relPath, line: t.position.line + 1 }),
        depth: input.max_depth,
        max_results: WALK_BUDGET,
      },
      incoming ? 'incoming' : 'outgoing',
    );
    return { target: tree.symbol, results: flattenCalls(tree.root, incoming) };
  }
  const { file, label } = await targetFile(call, parsed);
  const graph = await importGraphWithin(call);
  if (input.query_type === 'imports') {
    // What a file imports depends only on the files the walk went through.
    const visited = new Set<string>();
    const results = importsOf(graph, file, input.max_depth, false, visited);
    noteGraphSkips(call, graph, visited);
    return { target: label, results };
  }
  // Any file left out of the graph could import the target.
  noteGraphSkips(call, graph);
  if (input.query_type === 'imports-me') return { target: label, results: importsOf(graph, file, input.max_depth, true) };
  return { target: label, results: await dependencies(call, graph, file, input.max_depth, input.query_type === 'depends-on-me') };
}

/** The workspace's catalog, complete (a watched catalog: the changes its watcher saw). */
export async function catalogBuilt(call: ServiceCall): Promise<void> {
  await call.workspace.catalog.complete(call.signal ? { signal: call.signal } : {});
}

function nameOf(n: CallNode): string {
  // The id holds the qualified name (`path::Calc.add#method`); the node only the short one.
  const m = n.symbol_id ? /::(.+)#[^#]+$/.exec(n.symbol_id) : null;
  return m ? m[1]!.replace(/~\d+$/, '') : n.name;
}

/**
 * The call tree as edges, breadth first, each edge once at its minimal depth. The tree lists a
 * function once per path that reaches it (a diamond of callers repeats the shared part), so the
 * same caller → callee pair can appear at several depths: the first one met breadth first is the
 * shortest. `paths` counts how often the walk met it. Cycles appear once (their node is not expanded).
 */
export function flattenCalls(root: CallNode, incoming: boolean): Relationship[] {
  const out: Relationship[] = [];
  const byKey = new Map<string, Relationship>();
  let level: { parent: CallNode; nodes: CallNode[] }[] = [{ parent: root, nodes: root.calls ?? [] }];
  for (let depth = 1; level.length; depth++) {
    const next: typeof level = [];
    for (const { parent, nodes } of level) {
      for (const n of nodes) {
        if (n.children?.length) next.push({ parent: n, nodes: n.children });
        const [from, to] = incoming ? [n, parent] : [parent, n];
        const key = `${nodeKey(from)}\0${nodeKey(to)}`;
        const seen = byKey.get(key);
        if (seen) {
          seen.paths = (seen.paths ?? 1) + 1;
          continue;
        }
        const r: Relationship = { from: nameOf(from), to: nameOf(to), type: 'call', file: from.file, depth };
        const site = n.call_sites?.[0];
        if (site) r.line = site.line;
        if (from.symbol_id) r.from_symbol_id = from.symbol_id;
        if (to.symbol_id) r.to_symbol_id = to.symbol_id;
        byKey.set(key, r);
        out.push(r);
      }
    }
    level = next;
  }
  return out;
}

function nodeKey(n: CallNode): string {
  return n.symbol_id ?? `${n.file}:${n.line}:${n.name}`;
}

/**
 * Imports of a file (or importers of it, `reverse`), followed through workspace files to `maxDepth`,
 * each import statement once at its minimal depth (breadth first). Reversed, a Go import names a
 * package: it is an importer of every file of the package, and listed once. `seen` collects the
 * files the walk went through.
 */
export function importsOf(graph: ImportGraph, file: string, maxDepth: number, reverse: boolean, seen = new Set<string>()): Relationship[] {
  const out: Relationship[] = [];
  const listed = new Set<string>();
  seen.add(file);
  let frontier = [file];
  for (let depth = 1; depth <= maxDepth && frontier.length; depth++) {
    const next: string[] = [];
    for (const f of frontier) {
      const edges = reverse ? (graph.importers.get(f) ?? []) : (graph.files.get(f)?.imports ?? []).map((imp) => ({ file: f, imp }));
      for (const { file: from, imp } of edges) {
        const to = imp.status === 'workspace' ? (imp.target_package ?? imp.target!) : imp.specifier;
        const key = `${from}\0${to}\0${imp.line}\0${imp.specifier}`;
        if (listed.has(key)) continue;
        listed.add(key);
        const r: Relationship = { from, to, type: 'import', file: from, line: imp.line, depth, status: imp.status, specifier: imp.specifier };
        if (imp.target_symbol_id) r.to_symbol_id = imp.target_symbol_id;
        out.push(r);
        const follow = reverse ? [from] : imp.status === 'workspace' ? (imp.target_files ?? [imp.target!]) : [];
        for (const f2 of follow) {
          if (seen.has(f2)) continue;
          seen.add(f2);
          next.push(f2);
        }
      }
    }
    frontier = next;
  }
  return out;
}

/** Files whose call edges a depends-on walk asks at once (each is one call tree per function, in turn). */
const FILES_AT_ONCE = 4;

/** depends-on(-me): file-level union of import edges and call edges, breadth first to `maxDepth`. */
export async function dependencies(call: ServiceCall, graph: ImportGraph, file: string, maxDepth: number, reverse: boolean): Promise<Relationship[]> {
  const out: Relationship[] = [];
  const seen = new Set([file]);
  let frontier = [file];
  let unasked = 0;
  const limiter = new Limiter(FILES_AT_ONCE);
  const direction = reverse ? 'incoming' : 'outgoing';
  for (let depth = 1; depth <= maxDepth && frontier.length && out.length < WALK_BUDGET; depth++) {
    const next: string[] = [];
    // a level's files are asked together (each file's call edges were awaited in turn: one call tree per function, serially)
    const calls = frontier.map((f) =>
      limiter.run(async () => {
        // past the deadline a file's edges are not asked (the target's own always are)
        if (depth > 1 && call.deadline?.passed()) return undefined;
        return fileCallEdges(call, f, direction, skipsOf(call));
      }),
    );
    calls.forEach((p) => p.catch(() => undefined));
    for (const [k, f] of frontier.entries()) {
      const callEdges = await calls[k]!;
      if (!callEdges) {
        unasked++;
        continue;
      }
      const edges = new Map<string, Relationship>();
      const add = (other: string, line: number | undefined, via: 'import' | 'call') => {
        const [from, to] = reverse ? [other, f] : [f, other];
        let r = edges.get(other);
        if (!r) edges.set(other, (r = { from, to, type: 'dependency', file: from, depth, via: [] }));
        if (line !== undefined && r.line === undefined) r.line = line;
        if (!r.via!.includes(via)) r.via!.push(via);
      };
      if (reverse) for (const { file: imp, imp: i } of graph.importers.get(f) ?? []) add(imp, i.line, 'import');
      else
        for (const i of graph.files.get(f)?.imports ?? [])
          if (i.status === 'workspace') for (const t of i.target_files ?? [i.target!]) if (t !== f) add(t, i.line, 'import');
      for (const e of callEdges) add(e.file, e.line, 'call');
      for (const [other, r] of [...edges].sort((a, b) => a[0].localeCompare(b[0]))) {
        r.via!.sort();
        out.push(r);
        if (!seen.has(other)) {
          seen.add(other);
          next.push(other);
        }
      }
    }
    frontier = next;
  }
  if (unasked) call.deadline?.cut(call.meta, `the dependencies of ${unasked} file(s) the walk reached not asked`);
  return out;
}
