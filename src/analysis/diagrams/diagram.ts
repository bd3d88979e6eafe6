/**
 * render_diagram's graph: the same edges query_relationships answers (import graph, call trees,
 * file dependencies), around a target or over the whole workspace, cut to a node budget. Nodes are
 * added in the order their edges are found (breadth first from the target), so a cut keeps the
 * nearest ones; edges to nodes over the budget are left out and counted.
 */
import { LspgateError } from '../../errors/errors.js';
import { DIAGRAM_TYPES } from '../../schema/vocabularies.js';
import type { ServiceCall } from '../../service/call.js';
import { callTree } from '../../service/navigation/call-tree.js';
import { catalogFileSymbols } from '../../service/symbol-ids.js';
import { type ImportGraph, importGraph, noteGraphSkips } from '../imports/import-graph.js';
import { CALLABLE_KINDS, fileCallEdges } from '../relationships/file-calls.js';
import { dependencies, flattenCalls, importsOf, type Relationship, WALK_BUDGET } from '../relationships/relationships.js';
import { addCatalogErrors, type Skips, skipsOf } from '../skips.js';
import { parseTarget, resolveSymbolTarget, targetFile } from '../target.js';
import type { GraphData, GraphEdge, GraphNode } from './diagram-format.js';

export { DIAGRAM_TYPES };
export type DiagramType = (typeof DIAGRAM_TYPES)[number];

class Builder {
  private readonly nodes = new Map<string, GraphNode>();
  private readonly edges = new Map<string, GraphEdge & { labels: Set<string> }>();
  readonly omitted = new Set<string>();
  constructor(private readonly max: number) {}

  get full(): boolean {
    return this.omitted.size > 0;
  }

  private node(key: string, label: string, type: GraphNode['type']): GraphNode | undefined {
    const n = this.nodes.get(key);
    if (n) return n;
    if (this.nodes.size >= this.max) {
      this.omitted.add(key);
      return undefined;
    }
    const created: GraphNode = { id: `n${this.nodes.size}`, label, type };
    this.nodes.set(key, created);
    return created;
  }

  edge(from: [string, string, GraphNode['type']], to: [string, string, GraphNode['type']], label: string): void {
    const a = this.node(...from);
    const b = this.node(...to);
    if (!a || !b || a === b) return;
    const key = `${a.id}\0${b.id}`;
    const e = this.edges.get(key);
    if (e) e.labels.add(label);
    else this.edges.set(key, { from: a.id, to: b.id, labels: new Set([label]) });
  }

  data(): GraphData {
    return {
      nodes: [...this.nodes.values()],
      edges: [...this.edges.values()].map((e) => ({ from: e.from, to: e.to, label: [...e.labels].sort().join('+') })),
    };
  }
}

const fileNode = (f: string): [string, string, GraphNode['type']] => [`file:${f}`, f, 'module'];

function callNode(name: string, id: string | undefined, file: string): [string, string, GraphNode['type']] {
  return [id ? `sym:${id}` : `sym:${file}:${name}`, name, id?.endsWith('#class') ? 'class' : 'function'];
}

function addRelationships(b: Builder, list: Relationship[]): void {
  for (const r of list) {
    if (r.type === 'import' && r.status !== 'workspace') continue;
    if (r.type === 'call') b.edge(callNode(r.from, r.from_symbol_id, r.file), callNode(r.to, r.to_symbol_id, r.file), 'call');
    else b.edge(fileNode(r.from), fileNode(r.to), r.type === 'import' ? 'import' : (r.via ?? ['dependency']).join('+'));
  }
}

export async function buildDiagram(
  call: ServiceCall,
  input: { diagram_type: DiagramType; target?: string | undefined; depth: number; max_nodes: number },
): Promise<{ graph: GraphData; omitted_nodes: number }> {
  const b = new Builder(input.max_nodes);
  const graph = input.diagram_type === 'calls' ? undefined : await importGraph(call);
  if (graph) noteGraphSkips(call, graph);
  const wantImports = input.diagram_type === 'imports' || input.diagram_type === 'all';
  const wantCalls = input.diagram_type === 'calls' || input.diagram_type === 'all';
  if (input.target !== undefined) {
    const parsed = parseTarget(call, input.target);
    if (input.diagram_type === 'dependencies') {
      const { file } = await targetFile(call, parsed);
      addRelationships(b, await dependencies(call, graph!, file, input.depth, false));
      addRelationships(b, await dependencies(call, graph!, file, input.depth, true));
    }
    if (wantImports && !(input.diagram_type === 'all' && parsed.kind === 'symbol')) {
      const { file } = await targetFile(call, parsed);
      addRelationships(b, importsOf(graph!, file, input.depth, false));
      addRelationships(b, importsOf(graph!, file, input.depth, true));
    }
    if (wantCalls) {
      const t = await resolveSymbolTarget(call, parsed, 'a call diagram');
      const at = t.catalog ? { symbol_id: t.catalog.symbol_id } : { file: t.file.relPath, line: t.position.line + 1 };
      addRelationships(b, flattenCalls((await callTree(call, { ...at, depth: input.depth, max_results: WALK_BUDGET }, 'outgoing')).root, false));
      addRelationships(b, flattenCalls((await callTree(call, { ...at, depth: input.depth, max_results: WALK_BUDGET }, 'incoming')).root, true));
    }
    return { graph: b.data(), omitted_nodes: b.omitted.size };
  }
  await wholeWorkspace(call, b, graph, input.diagram_type);
  return { graph: b.data(), omitted_nodes: b.omitted.size };
}

/** Every workspace edge of the kind, file by file in path order, until the node budget is spent. */
async function wholeWorkspace(call: ServiceCall, b: Builder, graph: ImportGraph | undefined, type: DiagramType): Promise<void> {
  const catalog = call.workspace.catalog;
  await catalog.build(call.signal ? { signal: call.signal } : {});
  const skips = skipsOf(call);
  addCatalogErrors(skips, catalog.status().errors);
  const files = [...catalog.files().keys()].sort();
  for (const f of files) {
    if (b.full) return;
    if (graph && type !== 'calls') {
      for (const i of graph.files.get(f)?.imports ?? [])
        if (i.status === 'workspace') for (const t of i.target_files ?? [i.target!]) if (t !== f) b.edge(fileNode(f), fileNode(t), 'import');
    }
    if (type === 'dependencies') for (const e of await fileCallEdges(call, f, 'outgoing', skips)) b.edge(fileNode(f), fileNode(e.file), 'call');
    if (type === 'calls' || type === 'all') await fileCalls(call, b, f, skips);
  }
}

/** Every call of the file's functions as an edge; a failing file is skipped (file-calls.ts). */
async function fileCalls(call: ServiceCall, b: Builder, f: string, skips: Skips): Promise<void> {
  try {
    for (const s of (await catalogFileSymbols(call, f)) ?? []) {
      if (!CALLABLE_KINDS.has(s.kind) || b.full) continue;
      try {
        addRelationships(b, flattenCalls((await callTree(call, { symbol_id: s.symbol_id, depth: 1, max_results: 1000 }, 'outgoing')).root, false));
      } catch (e) {
        // No call hierarchy item for this declaration (see file-calls.ts): no edges of its own.
        if (!(e instanceof LspgateError) || e.code !== 'SYMBOL_NOT_FOUND') throw e;
      }
    }
  } catch (e) {
    skips.addError(f, e);
  }
}
