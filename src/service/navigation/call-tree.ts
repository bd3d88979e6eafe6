/**
 * find_callers / find_callees: a call tree in one answer from callHierarchy (prepare, then
 * incoming/outgoing calls per level up to `depth`). Cycles are cut (`cycle: true`), the node budget
 * is `max_results` (then `truncated`), callees outside the workspace (lib.d.ts) are counted, not
 * listed. Servers without callHierarchyProvider go through the fallback in calls-fallback.ts.
 */
import {
  CallHierarchyIncomingCallsRequest,
  type CallHierarchyItem,
  CallHierarchyOutgoingCallsRequest,
  CallHierarchyPrepareRequest,
  type Range,
} from 'vscode-languageserver-protocol';

import { pathRole } from '../../adapters/test-files.js';
import { LspgateError } from '../../errors/errors.js';
import { lineColumnOf } from '../../lsp/line-position.js';
import type { LspSession } from '../../lsp/types.js';
import { fromLspSymbolKind } from '../../schema/convert/lsp-kind.js';
import type { TreeNode } from '../../schema/rows.js';
import type { ServiceCall } from '../call.js';
import { Limiter } from '../cataloging/limiter.js';
import { LineSource, locate } from '../locations.js';
import { type Preview, preview } from '../previews.js';
import { catalogSymbolAt } from '../symbol-ids.js';
import { mayMissCalls, referenceCallers, withReferenceCallers } from './call-complement.js';
import { callEdgesOf } from './call-edges.js';
import { type CallEdge, loadCallFallback } from './call-fallback-types.js';
import { Mentions } from './mentions.js';
import { NewFilesOnly, type Reach } from './new-files-only.js';
import { ProjectFiles } from './projects.js';
import { type ResolvedTarget, resolveTarget, type TargetInput } from './resolve.js';
import { unreachableUses, unreachableWarning } from './unreachable-uses.js';

export interface CallSite {
  line: number;
  column: number;
  preview: Preview;
}

export interface CallNode extends TreeNode {
  /** Root only: the first level. */
  calls?: CallNode[];
  call_sites?: CallSite[];
  /** Next levels (depth > 1). */
  children?: CallNode[];
}

export type Direction = 'incoming' | 'outgoing';

export interface CallTreeInput extends TargetInput {
  depth?: number | undefined;
  max_results?: number | undefined;
  /** Incoming, read for its files only (analyze_impact): the last level asks only what may add a file (new-files-only.ts). */
  files_only?: boolean;
  /** files_only: which files can call into a file, where the caller knows. */
  reach?: Reach;
  /** Incoming: the files opened for the question, shared with what it asks beside the walk (impact's references). */
  mentions?: Mentions;
}

interface Walk {
  call: ServiceCall;
  session: LspSession;
  direction: Direction;
  budget: number;
  used: number;
  external: number;
  src: LineSource;
  viaFallback: boolean;
  /** One request per item and walk: an item reached along several paths is asked once. */
  memo: Map<string, Promise<CallEdge[]>>;
  /** Requests in flight at once (the next callers are asked while this level's nodes are built). */
  limiter: Limiter;
  /** Real paths of the files the walk met (one realpath per file). */
  realPaths: Map<string, string>;
  /** Call sites the references found and the call hierarchy did not list (call-complement.ts). */
  fromReferences: number;
  /** Incoming walks: the files spelling each asked item's name, opened before its callers are asked. */
  mentions?: Mentions;
  /** What the budget left out, per level, for the answer's first line. */
  cut: string[];
  /** The first level the call's deadline (`max_ms`) left unasked. */
  late?: number;
  /** Items of a begun level whose own edges the deadline left unasked. */
  unasked: number;
  /** Incoming walks: the server's project of each asked item's file, where it can say (projects.ts). */
  projects?: ProjectFiles;
  /** files_only: the files the walk holds, and the last level's items left unasked. */
  newFiles?: NewFilesOnly;
}

/** Call-hierarchy requests one walk keeps in flight: gopls answers them in parallel, tsserver queues them. */
const WALK_CONCURRENCY = 4;

export async function callTree(call: ServiceCall, input: CallTreeInput, direction: Direction): Promise<{ symbol: string; root: CallNode }> {
  const target = await resolveTarget(call, input, 'callable');
  const { file } = target;
  const session = file.session;
  const depth = input.depth ?? 1;
  const w: Walk = {
    call,
    session,
    direction,
    budget: input.max_results ?? 50,
    used: 0,
    external: 0,
    src: new LineSource(call),
    viaFallback: false,
    fromReferences: 0,
    memo: new Map(),
    limiter: new Limiter(WALK_CONCURRENCY),
    realPaths: new Map(),
    cut: [],
    unasked: 0,
  };
  let items: CallHierarchyItem[];
  if (session.hasCapability('callHierarchyProvider')) {
    items =
      (await session.request(CallHierarchyPrepareRequest.type, { textDocument: { uri: file.uri }, position: target.position }, { signal: call.signal })) ?? [];
  } else {
    w.viaFallback = true;
    const sym = target.symbol;
    if (!sym) throw new LspgateError('SYMBOL_NOT_FOUND', `no function or method declared at ${target.label}`);
    items = [{ name: sym.symbol.name, kind: sym.symbol.kind, uri: file.uri, range: sym.symbol.range, selectionRange: sym.symbol.selectionRange }];
    call.meta.warn(
      `${session.serverId} has no call hierarchy: ${direction === 'incoming' ? 'callers derived from references' : 'callees derived from the calls in the body'}`,
    );
  }
  const prepared = items[0];
  if (!prepared)
    throw new LspgateError('SYMBOL_NOT_FOUND', `no function, method or class at ${target.label} to build a call tree from`, { symbol: target.label });
  const item = w.viaFallback ? prepared : ownDeclaration(w, target, prepared);
  // Callers can live in files the server's project leaves out: at every level, those that spell the
  // name of the item asked about are opened first (a caller's callers may never spell the root's name).
  if (direction === 'incoming') incomingHelpers(w, input);
  if (w.viaFallback) input.mentions?.none();
  const root = await nodeOf(w, item);
  w.newFiles?.know(root.file);
  root.calls = await walkLevels(w, item, depth);
  w.call.workspace.catalog.recordCalls?.(callEdgesOf(root, direction));
  if (w.cut.length) {
    call.meta.truncate();
    call.meta.limit({
      limit: 'max_results',
      value: w.budget,
      detail: `${w.cut.join('; ')} not listed; raise max_results (up to 1000) or lower depth for the rest`,
    });
  }
  noteDeadline(w, depth);
  noteSources(w);
  if (direction === 'incoming') await unreachableCallers(w, target, root);
  return { symbol: target.label, root };
}

/** Where calls came from besides the call hierarchy, and which were left out. */
function noteSources(w: Walk): void {
  if (w.fromReferences)
    w.call.meta.warn(
      `${w.fromReferences} call site(s) that ${w.session.serverId}'s call hierarchy does not list were found by its references (callers outside the project of the callee's file)`,
    );
  if (w.external) w.call.meta.warn(`${w.external} call(s) to code outside the workspace (standard library, dependencies) left out`);
}

/** Calls of the root's name inside code the server reads as unreachable here: no caller of the tree, said. */
async function unreachableCallers(w: Walk, target: ResolvedTarget, root: CallNode): Promise<void> {
  const name = target.catalog?.name ?? target.symbol?.symbol.name;
  if (!name) return;
  const listed = new Set((root.calls ?? []).flatMap((c) => (c.call_sites ?? []).map((s) => `${c.file}:${s.line}:${s.column}`)));
  const found = await unreachableUses(w.call, target.file.language, name, listed);
  if (found) w.call.meta.warn(unreachableWarning(w.session.serverId, name, found));
}

/**
 * The item to walk from: the one the server prepared, or — when that is another declaration of the
 * name outside the workspace (a later import that rebinds it, `def f` then `from _c import f` as
 * asyncio does; a stub) while the symbol asked about is the workspace's — that symbol, its calls read
 * the way a server without a call hierarchy has them read, and the answer says so.
 */
function ownDeclaration(w: Walk, target: ResolvedTarget, item: CallHierarchyItem): CallHierarchyItem {
  const declared = target.symbol;
  if (!declared || insidePath(w, item.uri)) return item;
  w.viaFallback = true;
  const how = w.direction === 'incoming' ? 'callers derived from references' : 'callees derived from the calls in the body';
  w.call.meta.warn(
    `${w.session.serverId}'s call hierarchy at ${target.label} answered ${item.name} declared outside the workspace (${item.uri}; an import that rebinds the name?): ${how}`,
  );
  const { name, kind, range, selectionRange } = declared.symbol;
  return { name, kind, uri: target.file.uri, range, selectionRange };
}

/** An incoming walk's helpers: the files to open, the server's projects, and files_only's skips. */
function incomingHelpers(w: Walk, input: CallTreeInput): void {
  w.mentions = input.mentions ?? new Mentions(w.call, w.session);
  w.projects = new ProjectFiles(w.call, w.session);
  if (input.files_only) w.newFiles = new NewFilesOnly(w.call, w.session, (i) => insidePath(w, i.uri)?.file, input.reach);
}

/** What the deadline left unasked, said first (Deadline.cut). */
function noteDeadline(w: Walk, depth: number): void {
  const what = w.direction === 'incoming' ? 'callers' : 'callees';
  const parts: string[] = [];
  if (w.unasked) parts.push(`the ${what} of ${w.unasked} node(s) listed without theirs`);
  if (w.late !== undefined) parts.push(`${what} at depth ${w.late}${w.late < depth ? `-${depth}` : ''}`);
  if (parts.length) w.call.deadline?.cut(w.call.meta, `${parts.join(' and ')} not asked`);
}

function itemKey(item: CallHierarchyItem): string {
  return `${item.uri}\0${item.selectionRange.start.line}:${item.selectionRange.start.character}`;
}

/** Outside the workspace on its real path (a link out of the root included), a secret file, or no file at all. */
function isExternal(w: Walk, item: CallHierarchyItem): boolean {
  return insidePath(w, item.uri) === undefined;
}

/** The real path of an item of the walk, inside the workspace (isExternal let only those through). */
function insidePath(w: Walk, uri: string): { abs: string; file: string } | undefined {
  const where = locate(w.call.root, uri, { cache: w.realPaths, holdsKey: (abs) => w.src.file(abs, w.session).secret });
  return where.where === 'inside' ? where : undefined;
}

async function nodeOf(w: Walk, item: CallHierarchyItem): Promise<CallNode> {
  const where = insidePath(w, item.uri);
  if (!where) throw new LspgateError('PATH_OUTSIDE_WORKSPACE', `${item.name} is declared outside the workspace`, { symbol: item.name });
  const { abs, file } = where;
  const lines = w.src.lines(abs, w.session);
  const pos = lineColumnOf(lines, item.selectionRange.start, w.session.positionEncoding);
  const node: CallNode = { name: item.name, kind: fromLspSymbolKind(item.kind), file, line: pos.line };
  // the catalog's kind and qualified name: call hierarchies name a method `readRequest`, kind Function (gopls, pyright)
  const sym = await catalogSymbolAt(w.call, node.file, pos.line, pos.column, item.name);
  if (sym) {
    node.symbol_id = sym.symbol_id;
    node.kind = sym.kind;
    if (sym.qualified_name !== node.name) node.qualified_name = sym.qualified_name;
  }
  if (item.detail) node.detail = item.detail;
  w.call.meta.addSourceFile(abs);
  return node;
}

async function edges(w: Walk, item: CallHierarchyItem): Promise<CallEdge[]> {
  const { call, session } = w;
  if (w.viaFallback) {
    const fb = await loadCallFallback();
    if (!fb) throw new LspgateError('NOT_SUPPORTED', `${session.serverId} has no call hierarchy and the references fallback is not available`);
    return w.direction === 'incoming' ? fb.incomingCallsFromReferences({ call, session }, item) : fb.outgoingCallsFromBody({ call, session }, item);
  }
  if (w.direction === 'incoming') {
    // the files of the item's project are the hierarchy's own: neither opened nor checked by references
    const project = await w.projects?.of(item.uri);
    await w.mentions?.open(item.name, project);
    const res = (await session.request(CallHierarchyIncomingCallsRequest.type, { item }, { signal: call.signal })) ?? [];
    // Incoming: fromRanges are in the caller's file.
    const hierarchy = res.map((c) => ({ item: c.from, sites: c.fromRanges, sitesUri: c.from.uri }));
    if (!w.mentions || !mayMissCalls(w.mentions.callSpellings(item.name, project), item, hierarchy)) return hierarchy;
    const merged = withReferenceCallers(hierarchy, await referenceCallers(call, session, item));
    w.fromReferences += merged.added;
    return merged.edges;
  }
  const res = (await session.request(CallHierarchyOutgoingCallsRequest.type, { item }, { signal: call.signal })) ?? [];
  // Outgoing: fromRanges are in the file of the item being expanded (LSP 3.17 §3.16.2).
  return res.map((c) => ({ item: c.to, sites: c.fromRanges, sitesUri: item.uri }));
}

/** The edges of an item, asked once per walk; below the root, not once the deadline passed. */
function edgesOnce(w: Walk, item: CallHierarchyItem, cuttable: boolean): Promise<CallEdge[]> {
  const key = itemKey(item);
  let p = w.memo.get(key);
  if (!p) {
    p = w.limiter.run(async () => {
      if (cuttable && w.call.deadline?.passed()) {
        w.unasked++;
        return [];
      }
      return edges(w, item);
    });
    w.memo.set(key, p);
  }
  return p;
}

/** One item of a level of the walk: its node (undefined for the root) and the path that reached it. */
interface LevelItem {
  item: CallHierarchyItem;
  node: CallNode | undefined;
  path: Set<string>;
}

/**
 * The tree, breadth first: every item of a level is asked (WALK_CONCURRENCY in flight), and the
 * budget goes to the whole level — non-test callers before test ones — before any node of the next,
 * so a cut drops the deepest and the tests, never a direct caller (a method ~50 tests call spent a
 * depth-first budget on the tests under its first caller, and two of its three callers were missing).
 */
async function walkLevels(w: Walk, rootItem: CallHierarchyItem, depth: number): Promise<CallNode[]> {
  const top: CallNode[] = [];
  let level: LevelItem[] = [{ item: rootItem, node: undefined, path: new Set([itemKey(rootItem)]) }];
  for (let d = 1; d <= depth && level.length; d++) {
    // past the deadline the levels not begun are left out (the direct ones are always asked)
    if (d > 1 && w.call.deadline?.passed()) {
      w.late = d;
      break;
    }
    const ask = (i: number) => edgesOnce(w, level[i]!.item, d > 1).then((list) => inWorkspace(w, list));
    const lists =
      w.newFiles && d === depth && d > 1
        ? await w.newFiles.lastLevel(
            level.map((l) => l.item),
            ask,
            (e) => insidePath(w, e.item.uri)?.file,
            WALK_CONCURRENCY,
          )
        : await Promise.all(level.map((_, i) => ask(i)));
    const candidates = level.flatMap((parent, i) => lists[i]!.map((e) => ({ parent, e, test: isTestFile(w, e.item.uri) })));
    // within each parent's list the sort already put non-test first: the level's budget goes the same way
    const ranked = [...candidates.filter((c) => !c.test), ...candidates.filter((c) => c.test)];
    const room = Math.max(0, w.budget - w.used);
    const kept = new Set(ranked.slice(0, room));
    w.used += kept.size;
    if (kept.size < ranked.length) noteCut(w, d, d < depth, ranked.slice(room));
    const chosen = candidates.filter((c) => kept.has(c));
    const nodes = await Promise.all(chosen.map((c) => nodeOf(w, c.e.item)));
    for (const node of nodes) w.newFiles?.know(node.file);
    const next: LevelItem[] = [];
    chosen.forEach(({ parent, e }, i) => {
      const node = nodes[i]!;
      node.call_sites = callSites(w, e.sitesUri, e.sites);
      const key = itemKey(e.item);
      if (parent.path.has(key)) node.cycle = true;
      else if (d < depth) next.push({ item: e.item, node, path: new Set(parent.path).add(key) });
      if (parent.node) (parent.node.children ??= []).push(node);
      else top.push(node);
    });
    // a spent budget still asks the next level once, to count what it leaves out
    level = next;
  }
  return top;
}

/** The edges of a level inside the workspace, non-test callers first, each group in file then line order. */
function inWorkspace(w: Walk, list: CallEdge[]): CallEdge[] {
  const inside = list.filter((e) => {
    if (!isExternal(w, e.item)) return true;
    w.external++;
    return false;
  });
  const byPlace = (a: CallEdge, b: CallEdge) =>
    a.item.uri < b.item.uri ? -1 : a.item.uri > b.item.uri ? 1 : a.item.selectionRange.start.line - b.item.selectionRange.start.line;
  return [...inside.filter((e) => !isTestFile(w, e.item.uri)).sort(byPlace), ...inside.filter((e) => isTestFile(w, e.item.uri)).sort(byPlace)];
}

function isTestFile(w: Walk, uri: string): boolean {
  const where = insidePath(w, uri);
  return where !== undefined && pathRole(where.file) === 'test';
}

/** Entries of level `d` the budget left out (and, below depth, their own callers were not asked). */
function noteCut(w: Walk, d: number, deeper: boolean, left: { test: boolean }[]): void {
  const tests = left.filter((c) => c.test).length;
  const what = w.direction === 'incoming' ? 'caller' : 'callee';
  w.cut.push(`${left.length} ${what}(s) at depth ${d}${tests ? ` (${tests} of them in tests)` : ''}${deeper ? ` and their own ${what}s` : ''}`);
}

function callSites(w: Walk, uri: string, ranges: Range[]): CallSite[] {
  const where = insidePath(w, uri);
  if (!where) return [];
  const lines = w.src.lines(where.abs, w.session);
  const seen = new Set<string>();
  const out: CallSite[] = [];
  for (const r of [...ranges].sort((a, b) => a.start.line - b.start.line || a.start.character - b.start.character)) {
    const key = `${r.start.line}:${r.start.character}`;
    if (seen.has(key)) continue; // tsserver repeats a call site once per overload/project
    seen.add(key);
    const p = lineColumnOf(lines, r.start, w.session.positionEncoding);
    out.push({ line: p.line, column: p.column, preview: preview(lines, p.line, 0, 0) });
  }
  return out;
}
