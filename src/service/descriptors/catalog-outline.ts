/**
 * get_file_outline from the catalog's entry of the file, for when its language server cannot
 * answer now: while it loads (the cold catalog build started it), when none is configured for the
 * language, or when it is not installed or failed to start. The entry is the syntax tier's (marked
 * `index_state: syntax`) unless the server had already cataloged the file; nodes carry what the
 * catalog holds — kind, name, signature, lines, id, first sentence of the docstring — nested as
 * the server nests them, locals of bodies left out as in the server's outline.
 */
import type { CatalogSymbol } from '../../core/catalog.js';
import type { OutlineSymbol } from '../../schema/descriptors.js';
import { firstSentence } from '../../adapters/doc-text.js';
import type { ServiceCall } from '../call.js';
import { reportCatalog } from '../workspace/repository.js';

export interface FileOutline {
  file: string;
  language: string;
  package?: string;
  namespace?: string;
  symbols: OutlineSymbol[];
}

/** Kinds whose children are part of an outline (members), as opposed to locals of a function body. */
export const CONTAINER_KINDS = new Set(['class', 'interface', 'trait', 'struct', 'enum', 'namespace', 'module', 'package', 'type']);

/**
 * Whether to ask the file's server: one is configured and it is not still starting or indexing
 * (a server that failed to start is asked again: its error says why the syntax tier answers).
 */
export function serverMayAnswer(call: ServiceCall, abs: string): boolean {
  const route = call.env.broker.route(abs, call.root);
  if (!route) return false;
  const session = call.env.broker.existing().find((s) => s.serverId === route.entry.id && s.root === route.root);
  return session?.state !== 'starting' && session?.state !== 'indexing';
}

function node(s: CatalogSymbol): OutlineSymbol {
  const n: OutlineSymbol = { kind: s.kind, name: s.name, symbol_id: s.symbol_id, location: { start_line: s.line, end_line: s.end_line } };
  if (s.signature) n.signature = s.signature;
  if (s.docstring) n.description = firstSentence(s.docstring);
  return n;
}

export async function catalogOutline(call: ServiceCall, rel: string, abs: string, why?: string): Promise<FileOutline> {
  const entry = await call.workspace.catalog.earlyFile(rel);
  call.meta.addSourceFile(abs, entry.size);
  reportCatalog(call.workspace.catalog, call.meta, { files: [rel] });
  if (why) call.meta.warn(why);
  const nodes = new Map<string, OutlineSymbol>();
  const roots: OutlineSymbol[] = [];
  for (const s of [...entry.symbols].sort((a, b) => a.byte_offset - b.byte_offset || b.byte_length - a.byte_length)) {
    const parent = s.parent === undefined ? undefined : nodes.get(s.parent);
    if (s.parent !== undefined && (!parent || !CONTAINER_KINDS.has(parent.kind))) continue; // a local of a body, or under one
    const n = node(s);
    nodes.set(s.symbol_id, n);
    if (parent) (parent.children ??= []).push(n);
    else roots.push(n);
  }
  const first = entry.symbols[0];
  return {
    file: rel,
    language: entry.language,
    ...(first?.package ? { package: first.package } : {}),
    ...(first?.namespace ? { namespace: first.namespace } : {}),
    symbols: roots,
  };
}
