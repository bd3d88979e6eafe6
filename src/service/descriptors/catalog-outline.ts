/**
 * get_file_outline's `signatures` and `names` details from the catalog alone: a file the catalog
 * holds (fresh by stat, then hash; re-cataloged first when it changed) is outlined from its entry —
 * kind, name, one-line signature, first doc sentence, lines, id — without opening it in a
 * language server or waiting for one to start (an outline of a 5,000-line file took 0.06–0.95 s
 * warm, and seconds when the server had to start, through the server's file model). `full` asks
 * for each symbol's SymbolDescriptor, which the language adapters build from the server's model.
 */
import path from 'node:path';
import { languageProfile } from '../../adapters/languages.js';
import type { CatalogSymbol } from '../../core/catalog.js';
import type { OutlineSymbol } from '../../schema/descriptors.js';
import type { ServiceCall } from '../call.js';
import { reportCatalog } from '../workspace/repository.js';
import { CONTAINER_KINDS, type FileOutline } from './descriptors.js';

/** `signature` without the leading `words` (each only after the one before it, and only as a whole word). */
function withoutLeadingWords(signature: string, words: readonly string[]): string {
  let rest = signature;
  for (const w of words) {
    const after = rest.startsWith(w) ? rest.slice(w.length) : undefined;
    if (after === undefined || after.trimStart() === after) break;
    rest = after.trimStart();
  }
  return rest;
}

function outlineNode(s: CatalogSymbol): OutlineSymbol {
  // what the language's outline signatures leave out (the descriptors do the same)
  const words = languageProfile(s.language)?.declarations.outlineSignatureLeadingWords;
  const signature = words ? withoutLeadingWords(s.signature, words) : s.signature;
  return {
    kind: s.kind,
    name: s.name,
    symbol_id: s.symbol_id,
    ...(signature ? { signature } : {}),
    // the catalog's summary is the doc's first sentence, else the signature again
    ...(s.docstring ? { description: s.summary } : {}),
    location: { start_line: s.line, end_line: s.end_line },
  };
}

/** The outline tree of one file's catalog entry: members of containers, never the locals of a body. */
export function outlineOfEntry(symbols: readonly CatalogSymbol[]): OutlineSymbol[] {
  const nodes = new Map<string, OutlineSymbol>();
  const kinds = new Map<string, string>();
  const roots: OutlineSymbol[] = [];
  // file then line order: a parent comes before its children
  for (const s of symbols) {
    kinds.set(s.symbol_id, s.kind);
    if (s.parent !== undefined && (!nodes.has(s.parent) || !CONTAINER_KINDS.has(kinds.get(s.parent)!))) continue;
    const node = outlineNode(s);
    nodes.set(s.symbol_id, node);
    if (s.parent === undefined) roots.push(node);
    else (nodes.get(s.parent)!.children ??= []).push(node);
  }
  return roots;
}

export async function catalogOutline(call: ServiceCall, fileInput: string): Promise<FileOutline> {
  const abs = call.resolvePath(fileInput, { expect: 'file' });
  const rel = path.relative(call.root, abs).split(path.sep).join('/');
  const catalog = call.workspace.catalog;
  const symbols = await catalog.fileSymbols(rel);
  call.meta.addSourceFile(abs);
  reportCatalog(catalog, call.meta);
  const entry = catalog.files().get(rel);
  const first = symbols[0];
  return {
    file: rel,
    language: entry?.language ?? first?.language ?? 'unknown',
    ...(first?.package ? { package: first.package } : {}),
    ...(first?.namespace ? { namespace: first.namespace } : {}),
    symbols: outlineOfEntry(symbols),
  };
}
