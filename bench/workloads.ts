/**
 * The query kinds measured, each as (a) what a client of the raw server sends for it and (b) the
 * lspgate operation that answers the same question at the same position.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  CallHierarchyIncomingCallsRequest,
  CallHierarchyPrepareRequest,
  DefinitionRequest,
  DocumentSymbolRequest,
  HoverRequest,
  ReferencesRequest,
} from 'vscode-languageserver-protocol';
import type { Query } from './query-set.js';
import type { RawLspClient } from './raw-client.js';

export const KINDS = ['documentSymbol', 'definition', 'references', 'callers', 'typeDetails', 'functionDetails'] as const;
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
    raw: async (c, root, q) =>
      (await c.request(ReferencesRequest.type, { ...(await pos(c, root, q)), context: { includeDeclaration: true } })).result,
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
};
