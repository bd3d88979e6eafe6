/**
 * type_hierarchy: supertypes and/or subtypes of a type as a tree (depth ≤ 5, cycles cut, a node
 * budget). The LSP type-hierarchy requests where a server offers them; otherwise the relations of
 * parse trees (type-relations.ts): the bases declaration headers name, resolved with definition,
 * and for Go, whose types satisfy interfaces without naming them, gopls's implementation answers.
 */
import path from 'node:path';

import {
  ImplementationRequest,
  type TypeHierarchyItem,
  TypeHierarchyPrepareRequest,
  TypeHierarchySubtypesRequest,
  TypeHierarchySupertypesRequest,
} from 'vscode-languageserver-protocol';

import { languageProfile, profileOf } from '../../adapters/languages.js';
import type { CatalogSymbol } from '../../core/catalog.js';
import { LspgateError } from '../../errors/errors.js';
import { toLspPosition } from '../../lsp/positions.js';
import { fromLspSymbolKind } from '../../schema/convert/lsp-kind.js';
import type { TreeNode } from '../../schema/rows.js';
import type { ServiceCall } from '../call.js';
import { locate, toLocations } from '../locations.js';
import { resolveTarget, type TargetInput } from '../navigation/resolve.js';
import { catalogIdAt } from '../symbol-ids.js';
import { targetSymbol } from './implementations.js';
import { directSubtypes, type HeaderReference, headerReferences, SYNTAX_SOURCE, TYPE_KINDS, typeAt } from './type-relations.js';

export type HierarchyDirection = 'supertypes' | 'subtypes' | 'both';

export interface TypeNode extends TreeNode {
  /** How the node relates to its parent in the tree: a base its header names (`extends`, `implements`, Go `embeds`), or `implements` by the server's answer. */
  relation?: HeaderReference['relation'];
  external?: boolean;
  supertypes?: TypeNode[];
  subtypes?: TypeNode[];
}

export interface TypeHierarchyInput extends TargetInput {
  direction?: HierarchyDirection | undefined;
  depth?: number | undefined;
  max_results?: number | undefined;
}

export interface TypeHierarchyResult {
  symbol: string;
  direction: HierarchyDirection;
  source: 'server' | typeof SYNTAX_SOURCE;
  root: TypeNode;
}

type Edge = 'supertypes' | 'subtypes';

/** One way to find a node's neighbours; the tree walk is shared. */
interface Expander<N> {
  node(n: N): Promise<TypeNode>;
  key(n: N): string;
  next(n: N, edge: Edge): Promise<N[]>;
}

interface Budget {
  left: number;
  call: ServiceCall;
}

export async function typeHierarchy(call: ServiceCall, input: TypeHierarchyInput): Promise<TypeHierarchyResult> {
  const direction = input.direction ?? 'both';
  const depth = input.depth ?? 3;
  const budget: Budget = { left: input.max_results ?? 100, call };
  const target = await resolveTarget(call, input);
  const edges: Edge[] = direction === 'both' ? ['supertypes', 'subtypes'] : [direction];
  const session = target.file.session;
  const partial = profileOf(target.file.relPath, target.catalog?.language)?.types.serverHierarchyPartial;
  if (session.hasCapability('typeHierarchyProvider') && !partial) {
    const items = await session.request(
      TypeHierarchyPrepareRequest.type,
      { textDocument: { uri: target.file.uri }, position: target.position },
      { signal: call.signal },
    );
    const item = items?.[0];
    if (!item) throw new LspgateError('SYMBOL_NOT_FOUND', `${session.serverId} has no type at ${target.label}`, { symbol: target.label });
    const root = await grow(serverExpander(call), item, edges, depth, budget, new Set());
    return { symbol: target.label, direction, source: 'server', root };
  }
  const sym = await targetSymbol(call, target);
  if (!TYPE_KINDS.has(sym.kind))
    throw new LspgateError('INVALID_INPUT', `${sym.qualified_name} is a ${sym.kind}, not a type`, { symbol_id: sym.symbol_id, kind: sym.kind });
  const why =
    partial && session.hasCapability('typeHierarchyProvider')
      ? `${session.serverId}'s type hierarchy is not used (${partial})`
      : `${session.serverId} has no type hierarchy provider`;
  call.meta.warn(
    `${why}: built from the bases declaration headers name (read from parse trees), each resolved with ${session.serverId}'s definition${languageProfile(sym.language)?.types.implicitInterfaces ? `, and ${session.serverId}'s implementation answers` : ''}`,
  );
  const root = await grow(catalogExpander(call), { sym }, edges, depth, budget, new Set());
  return { symbol: target.label, direction, source: SYNTAX_SOURCE, root };
}

async function grow<N>(x: Expander<N>, n: N, edges: Edge[], depth: number, budget: Budget, path: Set<string>): Promise<TypeNode> {
  const node = await x.node(n);
  const key = x.key(n);
  if (path.has(key)) return { ...node, cycle: true };
  if (depth <= 0) return node;
  const inner = new Set(path).add(key);
  for (const edge of edges) {
    const list: TypeNode[] = [];
    for (const m of await x.next(n, edge)) {
      if (budget.left <= 0) {
        budget.call.meta.truncate();
        budget.call.meta.limit({ limit: 'max_results', value: 0, detail: 'node budget of the hierarchy used up' });
        break;
      }
      budget.left--;
      list.push(await grow(x, m, [edge], depth - 1, budget, inner));
    }
    node[edge] = list;
  }
  return node;
}

function serverExpander(call: ServiceCall): Expander<TypeHierarchyItem> {
  return {
    key: (i) => `${i.uri}#${i.selectionRange.start.line}:${i.selectionRange.start.character}`,
    async node(i) {
      const where = locate(call.root, i.uri);
      const inside = where.where === 'inside';
      const n: TypeNode = { name: i.name, kind: fromLspSymbolKind(i.kind), file: where.file, line: i.selectionRange.start.line + 1 };
      if (i.detail) n.detail = i.detail;
      if (!inside) n.external = true;
      else {
        const id = await catalogIdAt(call, n.file, n.line, i.selectionRange.start.character + 1, i.name);
        if (id) n.symbol_id = id;
      }
      return n;
    },
    async next(i, edge) {
      const where = locate(call.root, i.uri);
      if (where.where !== 'inside') return [];
      const session = (await call.file(where.abs)).session;
      const type = edge === 'supertypes' ? TypeHierarchySupertypesRequest.type : TypeHierarchySubtypesRequest.type;
      const items = (await session.request(type, { item: i }, { signal: call.signal })) ?? [];
      // an item in a secret file (by name or content) or a virtual document is left out, as in every location list
      return items.filter((x) => locate(call.root, x.uri).where !== 'refused');
    },
  };
}

/** A catalog type, or a supertype outside the workspace (a leaf), with how it relates to its parent. */
interface CatalogNode {
  sym?: CatalogSymbol;
  external?: { name: string; file: string; line: number };
  relation?: HeaderReference['relation'];
}

function catalogExpander(call: ServiceCall): Expander<CatalogNode> {
  return {
    key: (n) => n.sym?.symbol_id ?? `${n.external!.file}:${n.external!.line}`,
    async node(n) {
      const relation = n.relation ? { relation: n.relation } : {};
      if (n.external) return { name: n.external.name, kind: 'external', file: n.external.file, line: n.external.line, ...relation, external: true };
      const s = n.sym!;
      return { name: s.name, kind: s.kind, file: s.file, line: s.selection_line, symbol_id: s.symbol_id, detail: s.signature, ...relation };
    },
    async next(n, edge) {
      if (!n.sym) return [];
      const sym = n.sym;
      const found: CatalogNode[] = [];
      if (edge === 'supertypes') {
        for (const r of await headerReferences(call, sym)) {
          found.push(
            r.target
              ? { sym: r.target, relation: r.relation }
              : { external: { name: r.name, file: r.external!, line: r.externalLine ?? 1 }, relation: r.relation },
          );
        }
      } else {
        for (const { sub, relation } of await directSubtypes(call, sym)) found.push({ sym: sub, relation });
      }
      // interfaces satisfied implicitly (Go): only the server's implementation answer relates types to them
      if (languageProfile(sym.language)?.types.implicitInterfaces)
        for (const t of await goImplementations(call, sym, edge)) found.push({ sym: t, relation: 'implements' });
      const seen = new Set<string>();
      return found.filter((f) => {
        const k = f.sym?.symbol_id ?? `${f.external!.file}:${f.external!.line}`;
        return !seen.has(k) && (seen.add(k), true);
      });
    },
  };
}

/**
 * gopls's implementation answer at a type: for an interface, the types that satisfy it
 * (subtypes); for a concrete type, the interfaces it satisfies (supertypes).
 */
async function goImplementations(call: ServiceCall, sym: CatalogSymbol, edge: Edge): Promise<CatalogSymbol[]> {
  if ((edge === 'subtypes') !== (sym.kind === 'interface')) return [];
  const file = await call.file(path.join(call.root, sym.file));
  if (!file.session.hasCapability('implementationProvider')) return [];
  const pos = toLspPosition(file.text, sym.selection_line, sym.selection_column, file.session.positionEncoding);
  const answer = await file.session.request(ImplementationRequest.type, { textDocument: { uri: file.uri }, position: pos }, { signal: call.signal });
  const out: CatalogSymbol[] = [];
  for (const loc of toLocations(answer)) {
    const t = await typeAt(call, locate(call.root, loc.uri), loc.range.start.line);
    if (t && t.symbol_id !== sym.symbol_id) out.push(t);
  }
  return out;
}
