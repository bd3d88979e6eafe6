/**
 * The query kinds measured, each as (a) what a client of the raw server sends for it and (b) the
 * lspgate operation that answers the same question at the same position.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import {
  type CallHierarchyIncomingCall,
  CallHierarchyIncomingCallsRequest,
  type CallHierarchyItem,
  CallHierarchyPrepareRequest,
  DefinitionRequest,
  DocumentSymbolRequest,
  HoverRequest,
  ReferencesRequest,
} from 'vscode-languageserver-protocol';

import type { Query } from './query-set.js';
import type { RawLspClient } from './raw-client.js';

export const KINDS = ['documentSymbol', 'definition', 'references', 'callers', 'typeDetails', 'functionDetails', 'callsMe3', 'impact3'] as const;
export type Kind = (typeof KINDS)[number];

export interface Workload {
  kind: Kind;
  /** Whether this query applies (function details only for functions and methods). */
  applies(q: Query): boolean;
  /** The raw server's round trips for this question. */
  raw(client: RawLspClient, root: string, q: Query): Promise<unknown>;
  /** The lspgate operation and its input (1-based line and column). */
  op: string;
  input(q: Query): Record<string, unknown>;
}

const at = (q: Query) => ({ file: q.file, line: q.line + 1, column: q.character + 1, output_format: 'json' });

/**
 * The descriptor operations take names, not positions: the qualified name, narrowed to the file's
 * module for TypeScript (whose package is the module path, `src/util/strings`).
 */
const byName = (field: 'type_name' | 'function_name') => (q: Query) => {
  const pkg = /\.(m|c)?[jt]sx?$/.test(q.file) ? { package: q.file.replace(/\.(m|c)?[jt]sx?$/, '') } : {};
  return { [field]: q.qualified, ...pkg, output_format: 'json' };
};

/** The least a raw client needs for a descriptor: the outline (ranges, members) and the hover at the name. */
async function outlineAndHover(c: RawLspClient, root: string, q: Query) {
  const textDocument = await doc(c, root, q);
  const symbols = (await c.request(DocumentSymbolRequest.type, { textDocument })).result;
  const hover = (await c.request(HoverRequest.type, { textDocument, position: { line: q.line, character: q.character } })).result;
  return { symbols, hover };
}

async function doc(client: RawLspClient, root: string, q: Query) {
  const abs = path.join(root, q.file);
  await client.open(abs);
  return { uri: pathToFileURL(abs).href };
}

async function pos(client: RawLspClient, root: string, q: Query) {
  return { textDocument: await doc(client, root, q), position: { line: q.line, character: q.character } };
}

/** The catalog's id of the query's symbol (`path::Qualified.name#kind`): the seed's `target`. */
const symbolId = (q: Query) => `${q.file}::${q.qualified}#${q.kind}`;

/**
 * What a raw client must send for "who calls this, to depth 3": prepare, then incomingCalls for
 * every caller found, level by level, one request at a time, each item asked once (a caller
 * reached along two paths reuses the answer). Callers outside the workspace are not expanded and a
 * caller already on the path is not expanded again (lspgate's rules).
 */
async function incomingToDepth(c: RawLspClient, root: string, q: Query, depth: number): Promise<number> {
  const items = (await c.request(CallHierarchyPrepareRequest.type, await pos(c, root, q))).result;
  if (!items?.length) return 0;
  const key = (i: CallHierarchyItem) => `${i.uri}\0${i.selectionRange.start.line}:${i.selectionRange.start.character}`;
  const inside = pathToFileURL(root).href + '/';
  let edges = 0;
  const asked = new Map<string, CallHierarchyIncomingCall[]>();
  const incoming = async (item: CallHierarchyItem) => {
    let got = asked.get(key(item));
    if (!got) asked.set(key(item), (got = (await c.request(CallHierarchyIncomingCallsRequest.type, { item })).result ?? []));
    return got;
  };
  let level = [{ item: items[0]!, path: new Set([key(items[0]!)]) }];
  for (let d = 1; d <= depth && level.length; d++) {
    const next: typeof level = [];
    for (const { item, path: onPath } of level) {
      for (const call of await incoming(item)) {
        if (!call.from.uri.startsWith(inside)) continue;
        edges++;
        if (!onPath.has(key(call.from))) next.push({ item: call.from, path: new Set(onPath).add(key(call.from)) });
      }
    }
    level = next;
  }
  return edges;
}

export const WORKLOADS: Record<Kind, Workload> = {
  documentSymbol: {
    kind: 'documentSymbol',
    applies: () => true,
    raw: async (c, root, q) => (await c.request(DocumentSymbolRequest.type, { textDocument: await doc(c, root, q) })).result,
    op: 'get_file_outline',
    input: (q) => ({ file: q.file, output_format: 'json' }),
  },
  definition: {
    kind: 'definition',
    applies: () => true,
    raw: async (c, root, q) => (await c.request(DefinitionRequest.type, await pos(c, root, q))).result,
    op: 'find_definition',
    input: at,
  },
  references: {
    kind: 'references',
    applies: () => true,
    raw: async (c, root, q) => (await c.request(ReferencesRequest.type, { ...(await pos(c, root, q)), context: { includeDeclaration: true } })).result,
    op: 'find_references',
    input: at,
  },
  callers: {
    kind: 'callers',
    applies: (q) => q.kind !== 'class',
    // Two round trips, as any client of callHierarchy must make.
    raw: async (c, root, q) => {
      const items = (await c.request(CallHierarchyPrepareRequest.type, await pos(c, root, q))).result;
      if (!items?.length) return [];
      return (await c.request(CallHierarchyIncomingCallsRequest.type, { item: items[0]! })).result;
    },
    op: 'find_callers',
    input: at,
  },
  typeDetails: {
    kind: 'typeDetails',
    applies: (q) => q.kind === 'class',
    // lspgate also hovers the members to fill fields and methods: the raw column is a lower bound.
    raw: outlineAndHover,
    op: 'find_type_definition',
    input: byName('type_name'),
  },
  functionDetails: {
    kind: 'functionDetails',
    applies: (q) => q.kind !== 'class',
    raw: outlineAndHover,
    op: 'get_function_details',
    input: byName('function_name'),
  },
  callsMe3: {
    kind: 'callsMe3',
    applies: (q) => q.kind !== 'class',
    raw: (c, root, q) => incomingToDepth(c, root, q, 3),
    op: 'query_relationships',
    input: (q) => ({ query_type: 'calls-me', target: symbolId(q), max_depth: 3, output_format: 'json' }),
  },
  impact3: {
    kind: 'impact3',
    applies: (q) => q.kind !== 'class',
    // analyze_impact of a symbol: its references, then its callers to depth 3.
    raw: async (c, root, q) => {
      await c.request(ReferencesRequest.type, { ...(await pos(c, root, q)), context: { includeDeclaration: false } });
      return incomingToDepth(c, root, q, 3);
    },
    op: 'analyze_impact',
    input: (q) => ({ element: symbolId(q), operation: 'modify', max_depth: 3, output_format: 'json' }),
  },
};
