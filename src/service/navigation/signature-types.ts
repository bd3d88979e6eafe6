/**
 * The types named in a declaration's signature, resolved by its language server: the type names
 * come from the adapter's descriptor (parameter and return types of a function, extends /
 * implements targets of a type), each is found in the declaration's own text and the server is
 * asked for its definition there. Only what resolves to a type declared in the workspace is kept;
 * a name the server sends to a library (string, Promise, error) or to nothing is counted.
 */
import { DefinitionRequest } from 'vscode-languageserver-protocol';

import type { SymbolContext } from '../../adapters/types.js';
import type { CatalogSymbol } from '../../core/catalog.js';
import { toLspPosition } from '../../lsp/positions.js';
import { FUNCTION_KINDS, TYPE_KINDS } from '../../schema/convert/lsp-kind.js';
import type { ServiceCall } from '../call.js';
import { LineSource, resolveLocations, toLocations } from '../locations.js';
import { definitionEntry } from './references.js';

export interface SignatureType {
  name: string;
  kind: string;
  file: string;
  line: number;
  symbol_id?: string;
  signature?: string;
  summary?: string;
}

/** Identifiers in type expressions as the descriptor gives them (`Map<string, User[]>` → Map, string, User). */
function typeNames(types: (string | undefined)[]): string[] {
  const names = new Set<string>();
  for (const t of types) for (const m of (t ?? '').matchAll(/[A-Za-z_$\\][\w$\\]*/g)) names.add(m[0].split('\\').pop()!);
  return [...names].filter(Boolean);
}

async function namesOf(call: ServiceCall, ctx: SymbolContext, kind: string): Promise<string[]> {
  const adapter = call.adapter(ctx.file);
  if ((FUNCTION_KINDS as readonly string[]).includes(kind)) {
    const d = await adapter.functionDescriptor(ctx);
    return typeNames([...(d.parameters ?? []).map((p) => p.type), ...(d.returns ?? []).map((r) => r.type), d.receiver]);
  }
  if ((TYPE_KINDS as readonly string[]).includes(kind)) {
    const d = await adapter.classDescriptor(ctx);
    return typeNames((d.relations ?? []).map((r) => r.target));
  }
  return [];
}

/** 1-based line and column of the first whole-word `name` after the declaration's own name. */
function positionIn(ctx: SymbolContext, sym: CatalogSymbol, name: string): { line: number; column: number } | undefined {
  const re = new RegExp(`(?<![\\w$])${name.replace(/[$]/g, '\\$')}(?![\\w$])`);
  for (let l = sym.selection_line; l <= sym.end_line; l++) {
    const text = ctx.file.lines[l - 1] ?? '';
    const from = l === sym.selection_line ? sym.selection_column - 1 + sym.name.length : 0;
    const m = re.exec(text.slice(from));
    if (m) return { line: l, column: from + m.index + 1 };
  }
  return undefined;
}

export async function signatureTypes(call: ServiceCall, ctx: SymbolContext, sym: CatalogSymbol): Promise<{ types: SignatureType[]; outside: number }> {
  const names = (await namesOf(call, ctx, sym.kind)).filter((n) => n !== sym.name);
  const { file } = ctx;
  const src = new LineSource(call);
  const seen = new Set<string>();
  const types: SignatureType[] = [];
  let outside = 0;
  for (const name of names) {
    const at = positionIn(ctx, sym, name);
    if (!at) continue;
    const position = toLspPosition(file.text, at.line, at.column, file.session.positionEncoding);
    const answer = await file.session.request(DefinitionRequest.type, { textDocument: { uri: file.uri }, position }, { signal: call.signal });
    const locs = resolveLocations(call, src, file.session, toLocations(answer));
    if (locs.length === 0 || locs.every((l) => l.external)) {
      if (locs.length) outside++;
      continue;
    }
    for (const loc of locs.filter((l) => !l.external)) {
      const d = await definitionEntry(call, loc);
      if (!(TYPE_KINDS as readonly string[]).includes(d.kind)) continue;
      const key = d.symbol_id ?? `${d.file}:${d.line}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const entry: SignatureType = { name: d.name, kind: d.kind, file: d.file, line: d.line };
      if (d.symbol_id) {
        entry.symbol_id = d.symbol_id;
        const c = await call.workspace.catalog.byId(d.symbol_id);
        if (c?.signature) entry.signature = c.signature;
        if (c?.summary && c.summary !== c.signature) entry.summary = c.summary;
      }
      types.push(entry);
    }
  }
  return { types, outside };
}
