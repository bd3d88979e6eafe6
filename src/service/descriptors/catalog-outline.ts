/**
 * get_file_outline from the catalog's entry of the file. The `signatures` and `names` details
 * always answer from it: a file the catalog holds (fresh by stat, then hash; re-cataloged first when
 * it changed) is outlined from its entry — kind, name, one-line signature, first doc sentence, lines,
 * id — without opening it in a language server (an outline of a 5,000-line file took 0.06–0.95 s
 * warm, and seconds when the server had to start, through the server's file model). A file with a
 * grammar is outlined from its parse tree, parsed at once when the catalog's pass has not reached
 * it; where no server handles the file the answer is marked `index_state: syntax`. `full` answers
 * the same way while the file's server cannot (loading, missing, failed to start) instead of the
 * adapters' SymbolDescriptors (descriptors.ts).
 */
import { languageProfile } from '../../adapters/languages.js';
import type { ServerEntry } from '../../config/schema.js';
import type { CatalogSymbol } from '../../core/catalog.js';
import { LspgateError } from '../../errors/errors.js';
import { prepareLaunch } from '../../lsp/session-errors.js';
import type { OutlineSymbol } from '../../schema/descriptors.js';
import { toRelative } from '../../util/paths.js';
import type { ServiceCall } from '../call.js';
import { hasSyntaxTier } from '../cataloging/syntax-entry.js';
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

/** Why a server's failure to start still leaves a file its syntax outline. */
export const SERVERLESS = new Set(['SERVER_NOT_INSTALLED', 'SERVER_START_FAILED', 'SERVER_FAILED', 'UNSUPPORTED_LANGUAGE']);

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

/** Kinds whose bodies hold statements: what they declare there is a local, or a declaration of its own. */
const CALLABLE_KINDS = new Set(['function', 'method', 'constructor']);

/**
 * Declarations inside a function body that an outline lists for a language without a server, as
 * ctags and the languages' own outlines do (rust-analyzer: a struct, its impl, a `type`, an inner
 * `fn`; a C++ class in a function; nested Ruby and shell definitions). Variables and constants of a
 * body are locals, never listed.
 */
const BODY_DECLARATION_KINDS = new Set(['class', 'interface', 'trait', 'struct', 'enum', 'namespace', 'module', 'type', ...CALLABLE_KINDS]);

/**
 * The outline tree of one file's catalog entry: members of containers, never the locals of a body.
 * `bodies`: the declarations inside function bodies are listed too, nested under their function (a
 * language with no server, whose outline is the parse tree's; a server's outline keeps its own rule).
 */
export function outlineOfEntry(symbols: readonly CatalogSymbol[], opts: { bodies?: boolean } = {}): OutlineSymbol[] {
  const nodes = new Map<string, OutlineSymbol>();
  const roots: OutlineSymbol[] = [];
  const listed = (parentKind: string, kind: string) =>
    CONTAINER_KINDS.has(parentKind) || (opts.bodies === true && CALLABLE_KINDS.has(parentKind) && BODY_DECLARATION_KINDS.has(kind));
  // byte order, the enclosing symbol first: a parent comes before its children
  for (const s of [...symbols].sort((a, b) => a.byte_offset - b.byte_offset || b.byte_length - a.byte_length)) {
    const parent = s.parent === undefined ? undefined : nodes.get(s.parent);
    if (s.parent !== undefined && (!parent || !listed(parent.kind, s.kind))) continue; // a local of a body, or under one
    const node = outlineNode(s);
    nodes.set(s.symbol_id, node);
    if (parent) (parent.children ??= []).push(node);
    else roots.push(node);
  }
  return roots;
}

/** What an outline is made of: the file's symbols in its catalog entry, its language and size. */
interface Entry {
  language: string;
  size?: number;
  symbols: readonly CatalogSymbol[];
  tier?: 'syntax';
}

/**
 * The file's catalog entry: its server's (the catalog's fileSymbols) when the server may answer,
 * else — or when it fails for want of a server — its syntax entry, with the reason as a warning.
 */
async function entryOf(call: ServiceCall, rel: string, abs: string, why?: string): Promise<Entry> {
  const catalog = call.workspace.catalog;
  const syntax = hasSyntaxTier(rel);
  if (syntax && why) call.meta.warn(why);
  // a file with a grammar: its parse tree is its catalog entry, parsed now if the pass has not reached it
  if (syntax) return catalog.earlyFile(rel);
  try {
    const symbols = await catalog.fileSymbols(rel);
    // a file the walk leaves out is answered by name, not indexed
    const entry = catalog.files().get(rel);
    return { language: entry?.language ?? symbols[0]?.language ?? 'unknown', ...(entry ? { size: entry.size } : {}), symbols };
  } catch (e) {
    if (!syntax || !(e instanceof LspgateError) || !SERVERLESS.has(e.code)) throw e;
    call.meta.warn(`${e.code}: ${e.message}`);
    return catalog.earlyFile(rel);
  }
}

/** SERVER_NOT_INSTALLED when the server's command (or what it needs) is missing; undefined when it could start. */
function notInstalled(entry: ServerEntry, ctx: { cacheDir: string; root: string }): LspgateError | undefined {
  try {
    prepareLaunch(entry, ctx);
    return undefined;
  } catch (e) {
    return e instanceof LspgateError && e.code === 'SERVER_NOT_INSTALLED' ? e : undefined;
  }
}

/**
 * The outline of `fileInput` from its catalog entry (see the header for which entry); `why`: the
 * file's server just failed for want of a server (SERVERLESS), so its syntax entry answers.
 */
export async function catalogOutline(call: ServiceCall, fileInput: string, why?: string): Promise<FileOutline> {
  const abs = call.resolvePath(fileInput, { expect: 'file' });
  const rel = toRelative(call.root, abs);
  const entry = await entryOf(call, rel, abs, why);
  call.meta.addSourceFile(abs, entry.size);
  reportCatalog(call.workspace.catalog, call.meta, { files: [rel] });
  // a file no server handles here (none configured, or its command missing; also one the walk leaves
  // out, not in the catalog): its outline is all a syntax tree says, and the answer says why
  const route = call.env.broker.route(abs, call.root);
  if (entry.tier === 'syntax') {
    const missing = route ? notInstalled(route.entry, { cacheDir: call.env.cacheDir, root: route.root }) : undefined;
    if (!route || missing) call.meta.setIndexState('syntax');
    if (missing) call.meta.warn(`${missing.code}: ${missing.message}`);
  }
  const first = entry.symbols[0];
  return {
    file: rel,
    language: entry.language,
    ...(first?.package ? { package: first.package } : {}),
    ...(first?.namespace ? { namespace: first.namespace } : {}),
    symbols: outlineOfEntry(entry.symbols, { bodies: !route }),
  };
}
