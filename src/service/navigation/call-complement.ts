/**
 * A call hierarchy can be narrower than the server's references: tsserver answers incoming calls
 * from the project of the callee's file only, so a caller in a file its tsconfig.json leaves out
 * (tests/, examples/, loaded in an inferred project once open) is missing, while its references
 * combine every loaded project. Where some file spells `name(` on a line the hierarchy lists no
 * call on, a callers walk also asks for the item's references and adds, as callers, the call sites
 * among them (a reference followed by `(`, attributed to the innermost function or method around
 * it: calls-fallback.ts) that no caller of the hierarchy lists.
 */
import type { CallHierarchyItem, Range } from 'vscode-languageserver-protocol';

import type { LspSession } from '../../lsp/types.js';
import { pathOfUri } from '../../util/uri.js';
import type { ServiceCall } from '../call.js';
import { rangeContains } from '../symbols.js';
import { type CallEdge, loadCallFallback } from './call-fallback-types.js';

/**
 * Whether a line spelling `name(` (mentions.ts) is neither the item's own declaration nor a line
 * of a call site the hierarchy lists: only then can references add a caller, and only then are
 * they asked (a references request costs about what the incoming calls did, per item of a walk).
 */
export function mayMissCalls(spellings: Map<string, number[]>, item: CallHierarchyItem, hierarchy: CallEdge[]): boolean {
  const listed = new Map<string, Set<number>>();
  const add = (uri: string, line: number) => {
    const file = pathOfUri(uri) ?? uri;
    listed.set(file, (listed.get(file) ?? new Set()).add(line));
  };
  add(item.uri, item.selectionRange.start.line);
  for (const e of hierarchy) for (const s of e.sites) add(e.sitesUri, s.start.line);
  for (const [file, lines] of spellings) {
    const known = listed.get(file);
    if (lines.some((l) => !known?.has(l))) return true;
  }
  return false;
}

/** The callers derived from references, or none when the server has no references or the fallback is absent. */
export async function referenceCallers(call: ServiceCall, session: LspSession, item: CallHierarchyItem): Promise<CallEdge[]> {
  if (!session.hasCapability('referencesProvider')) return [];
  const fb = await loadCallFallback();
  if (!fb) return [];
  return fb.incomingCallsFromReferences({ call, session }, item, { callsOnly: true });
}

function keyOf(e: CallEdge): string {
  const s = e.item.selectionRange.start;
  return `${pathOfUri(e.item.uri) ?? e.item.uri}\0${s.line}:${s.character}`;
}

/**
 * The hierarchy's edges, plus the reference call sites none of them covers (merged into the
 * hierarchy's edge of the same caller, else a caller of their own). Returns how many sites were added.
 */
export function withReferenceCallers(hierarchy: CallEdge[], fromRefs: CallEdge[]): { edges: CallEdge[]; added: number } {
  const covered = new Map<string, Range[]>();
  for (const e of hierarchy) {
    const file = pathOfUri(e.sitesUri) ?? e.sitesUri;
    covered.set(file, [...(covered.get(file) ?? []), ...e.sites]);
  }
  const byKey = new Map(hierarchy.map((e) => [keyOf(e), e] as const));
  const edges = [...hierarchy];
  let added = 0;
  for (const e of fromRefs) {
    const inFile = covered.get(pathOfUri(e.sitesUri) ?? e.sitesUri) ?? [];
    const sites = e.sites.filter((s) => !inFile.some((c) => rangeContains(c, s.start)));
    if (!sites.length) continue;
    added += sites.length;
    const same = byKey.get(keyOf(e));
    if (same) {
      const merged = { ...same, sites: [...same.sites, ...sites] };
      edges[edges.indexOf(same)] = merged;
      byKey.set(keyOf(e), merged);
    } else {
      const edge = { ...e, sites };
      edges.push(edge);
      byKey.set(keyOf(e), edge);
    }
  }
  return { edges, added };
}
