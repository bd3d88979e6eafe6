/**
 * find_implementations: `textDocument/implementation` where the server offers it; otherwise the
 * type relations of parse trees resolved by the server (type-relations.ts): every type below the
 * target (transitively, at most MAX_DEPTH levels), or for a method, the members of those types with
 * the method's name.
 */
import path from 'node:path';

import { ImplementationRequest } from 'vscode-languageserver-protocol';

import type { CatalogSymbol } from '../../core/catalog.js';
import { LspgateError } from '../../errors/errors.js';
import type { ServiceCall } from '../call.js';
import { LineSource, resolveLocations, toLocations } from '../locations.js';
import { declarationEntry } from '../navigation/definition-entry.js';
import { type DefinitionEntry, definitionEntry } from '../navigation/references.js';
import { type ResolvedTarget, resolveTarget, type TargetInput } from '../navigation/resolve.js';
import { catalogSymbolFor } from '../symbol-ids.js';
import { directSubtypes, membersNamed, SYNTAX_SOURCE, TYPE_KINDS } from './type-relations.js';

export const MAX_DEPTH = 5;

export interface ImplementationsResult {
  symbol: string;
  source: 'server' | typeof SYNTAX_SOURCE;
  implementations: DefinitionEntry[];
}

export async function findImplementations(call: ServiceCall, input: TargetInput): Promise<ImplementationsResult> {
  const target = await resolveTarget(call, input);
  const { file } = target;
  if (file.session.hasCapability('implementationProvider')) {
    const answer = await file.session.request(
      ImplementationRequest.type,
      { textDocument: { uri: file.uri }, position: target.position },
      { signal: call.signal },
    );
    const implementations: DefinitionEntry[] = [];
    for (const loc of resolveLocations(call, new LineSource(call), file.session, toLocations(answer))) implementations.push(await definitionEntry(call, loc));
    return { symbol: target.label, source: 'server', implementations };
  }
  const sym = await targetSymbol(call, target);
  call.meta.warn(
    `${file.session.serverId} has no implementation provider: built from the bases declaration headers name (read from parse trees), each resolved with ${file.session.serverId}'s definition`,
  );
  return { symbol: target.label, source: SYNTAX_SOURCE, implementations: await catalogImplementations(call, sym) };
}

export async function targetSymbol(call: ServiceCall, target: ResolvedTarget): Promise<CatalogSymbol> {
  const sym = target.catalog ?? (target.symbol ? await catalogSymbolFor(call, target.symbol) : undefined);
  if (!sym)
    throw new LspgateError(
      'NOT_SUPPORTED',
      `${target.label} is not a cataloged declaration: without a server provider only types and their members have relations`,
      { server: target.file.session.serverId },
    );
  return sym;
}

async function catalogImplementations(call: ServiceCall, sym: CatalogSymbol): Promise<DefinitionEntry[]> {
  if (TYPE_KINDS.has(sym.kind)) return Promise.all((await descendants(call, sym)).map((s) => catalogEntry(call, s)));
  const owner = sym.parent ? await call.workspace.catalog.byId(sym.parent) : undefined;
  if (!owner || !TYPE_KINDS.has(owner.kind)) {
    throw new LspgateError(
      'NOT_SUPPORTED',
      `${sym.qualified_name} is a ${sym.kind} outside any type: without the server's implementation provider only types and their members have implementations`,
      { symbol_id: sym.symbol_id },
    );
  }
  const out: CatalogSymbol[] = [];
  for (const t of await descendants(call, owner)) out.push(...(await membersNamed(call, t, sym.name)));
  return Promise.all(out.map((s) => catalogEntry(call, s)));
}

/** Every type below `sym`, breadth first, each once. */
async function descendants(call: ServiceCall, sym: CatalogSymbol): Promise<CatalogSymbol[]> {
  const seen = new Set([sym.symbol_id]);
  const out: CatalogSymbol[] = [];
  let level = [sym];
  for (let depth = 0; depth < MAX_DEPTH && level.length; depth++) {
    const next: CatalogSymbol[] = [];
    for (const t of level) {
      for (const { sub } of await directSubtypes(call, t)) {
        if (seen.has(sub.symbol_id)) continue;
        seen.add(sub.symbol_id);
        next.push(sub);
      }
    }
    out.push(...next);
    level = next;
  }
  if (level.length)
    call.meta.limit({ limit: 'depth', value: MAX_DEPTH, detail: `types more than ${MAX_DEPTH} levels below ${sym.qualified_name} are not listed` });
  return out;
}

export async function catalogEntry(call: ServiceCall, s: CatalogSymbol): Promise<DefinitionEntry> {
  const file = await call.file(path.join(call.root, s.file));
  call.meta.addSourceFile(file.absPath);
  return declarationEntry(s, file.lines);
}
