/**
 * Answers from the catalog and the files: get_symbol(s) (exact source by byte offset, optionally
 * re-hashed), search_symbols (ranked over the catalog, pages re-checked against the disk) and
 * search_text (a grep through the file-safety pipeline).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';

import { projectManifests } from '../../adapters/languages.js';
import { symbolFilter } from '../../catalog/symbol-index.js';
import { searchText as runTextSearch, type TextMatch } from '../../catalog/text-search.js';
import type { CallMeta } from '../../core/call-meta.js';
import type { CatalogSymbol, SymbolRef } from '../../core/catalog.js';
import { decodeCursor, paginate, queryHash } from '../../core/paging.js';
import { LspgateError, toLspgateError } from '../../errors/errors.js';
import type { SymbolKind } from '../../schema/descriptors.js';
import { sha256 } from '../../util/hash.js';
import type { ServiceCall } from '../call.js';
import { declarationGroup, overloadable } from '../navigation/declaration-group.js';
import { type ParentOf, type Scope, scopeOf, searchPolicyKey } from '../navigation/resolution-policy.js';
import { reportCatalog } from '../workspace/repository.js';
import { idOrName } from './symbol-target.js';

export interface SymbolSource {
  symbol: CatalogSymbol;
  source: string;
  context?: { start_line: number; end_line: number; before: string; after: string };
}

function notFound(id: string): LspgateError {
  return new LspgateError('SYMBOL_NOT_FOUND', `no symbol ${id}; find ids with search_symbols or get_file_outline`, { symbol_id: id });
}

function checkQuery(call: ServiceCall, query: string): void {
  const max = call.env.limits.maxQueryLength;
  if (query.length > max) throw new LspgateError('INVALID_INPUT', `query is longer than maxQueryLength ${max}`);
}

/** The symbol's exact source (by byte offset), verified against its content hash when asked. */
async function symbolSource(call: ServiceCall, id: string, opts: { verify?: boolean | undefined; contextLines?: number | undefined }): Promise<SymbolSource> {
  const cat = call.workspace.catalog;
  const meta = call.meta;
  // a symbol's source is syntax: answered before the server has cataloged its file (early)
  let sym = opts.verify ? ((await cat.peek(id)) ?? (await cat.byId(id, { early: true }))) : await cat.byId(id, { early: true });
  if (!sym) throw notFound(id);
  const abs = path.join(call.root, sym.file);
  let bytes = await readFile(abs);
  if (opts.verify) {
    const ok = sha256(bytes.subarray(sym.byte_offset, sym.byte_offset + sym.byte_length)) === sym.content_hash;
    meta.contentVerified = meta.contentVerified === false ? false : ok;
    if (!ok) {
      meta.warn(`${sym.file} changed since it was cataloged; it was re-cataloged and the current source is returned`);
      await cat.refresh([sym.file]);
      sym = await cat.peek(id);
      if (!sym)
        throw new LspgateError('SYMBOL_NOT_FOUND', `${id} no longer exists: ${id.split('::')[0]} changed on disk`, { symbol_id: id, file_changed: true });
      bytes = await readFile(abs);
    }
  }
  meta.addSourceFile(abs, bytes.length);
  sym = await groupOf(call, sym, bytes);
  const out: SymbolSource = { symbol: sym, source: bytes.subarray(sym.byte_offset, sym.byte_offset + sym.byte_length).toString('utf8') };
  const n = opts.contextLines ?? 0;
  if (n > 0) {
    const lines = bytes.toString('utf8').split(/\r\n|\r|\n/);
    const start = Math.max(1, sym.line - n);
    const end = Math.min(lines.length, sym.end_line + n);
    out.context = {
      start_line: start,
      end_line: end,
      before: lines.slice(start - 1, sym.line - 1).join('\n'),
      after: lines.slice(sym.end_line, end).join('\n'),
    };
  }
  return out;
}

/** An overloaded callable answers its whole group (what an edit of the same id replaces): its range and hash. */
async function groupOf(call: ServiceCall, sym: CatalogSymbol, bytes: Buffer): Promise<CatalogSymbol> {
  if (!overloadable(sym)) return sym;
  const g = declarationGroup(sym, await call.workspace.catalog.fileSymbols(sym.file), bytes);
  if (g.members.length < 2) return sym;
  const { start, end, line, end_line } = g;
  return { ...sym, line, end_line, byte_offset: start, byte_length: end - start, content_hash: sha256(bytes.subarray(start, end)) };
}

export async function getSymbol(
  call: ServiceCall,
  id: string,
  opts: { verify?: boolean | undefined; contextLines?: number | undefined },
): Promise<SymbolSource> {
  const r = await symbolSource(call, id, opts);
  reportCatalog(call.workspace.catalog, call.meta, { files: [r.symbol.file] });
  return r;
}

/**
 * Each one's source, or an error entry with its code for each that fails (cancellation and internal
 * errors fail the batch): `ids` are symbol ids, `names` names or ids (symbol-target.ts resolves them).
 */
export async function getSymbols(call: ServiceCall, ids: string[], verify: boolean | undefined, names: string[] = []) {
  const symbols: SymbolSource[] = [];
  const errors: { symbol_id?: string; symbol?: string; code: string; message: string }[] = [];
  const asked = [...ids.map((id) => ({ id })), ...names.map((name) => ({ name }))];
  for (const a of asked) {
    try {
      const id = 'id' in a ? a.id : await idOrName(call, a.name);
      symbols.push(await symbolSource(call, id, { verify }));
    } catch (e) {
      const err = toLspgateError(e);
      if (err.code === 'CANCELLED' || err.code === 'INTERNAL') throw err;
      errors.push({ ...('id' in a ? { symbol_id: a.id } : { symbol: a.name }), code: err.code, message: err.message });
    }
  }
  reportCatalog(call.workspace.catalog, call.meta, { files: symbols.map((s) => s.symbol.file) });
  return { symbols, errors };
}

export interface SymbolSearchInput {
  query: string;
  kind?: SymbolKind | SymbolKind[] | undefined;
  language?: string | undefined;
  file_pattern?: string | undefined;
  max_results?: number | undefined;
  max_tokens?: number | undefined;
  cursor?: string | undefined;
}

export interface SymbolHit extends SymbolRef {
  kind: SymbolKind;
  language: string;
  end_line: number;
  signature: string;
  summary: string;
  /** module-level, a member of a type, or local to a function body */
  scope: Scope;
  score: number;
}

function toHit(s: CatalogSymbol, score: number, parentOf: ParentOf): SymbolHit {
  const scope = scopeOf(s, parentOf);
  return {
    symbol_id: s.symbol_id,
    name: s.name,
    qualified_name: s.qualified_name,
    kind: s.kind,
    language: s.language,
    file: s.file,
    line: s.line,
    end_line: s.end_line,
    signature: s.signature,
    summary: s.summary,
    scope,
    score,
  };
}

/** A throwaway collector for a trial pagination (its truncation must not reach the answer). */
function scratchMeta(): CallMeta {
  return { truncate() {}, limit() {} } as unknown as CallMeta;
}

export async function searchSymbols(call: ServiceCall, input: SymbolSearchInput): Promise<{ results: SymbolHit[]; total: number }> {
  const cat = call.workspace.catalog;
  checkQuery(call, input.query);
  const hash = queryHash({ q: input.query, k: input.kind, l: input.language, f: input.file_pattern });
  const offset = decodeCursor(input.cursor, hash);
  const maxResults = input.max_results ?? 20;
  // Only the matches up to this page are ordered and made hits; the others are counted.
  const run = async () => {
    const filtered = input.kind !== undefined || !!input.language || !!input.file_pattern;
    const filter = filtered
      ? symbolFilter({ kind: input.kind, language: input.language, file_pattern: input.file_pattern }, (id) => cat.cached(id))
      : undefined;
    const ranker = await cat.searchTexts({ early: true });
    const { top, total } = ranker.top(
      input.query,
      filter,
      offset + maxResults,
      searchPolicyKey(ranker, input.query, (id) => cat.cached(id)),
    );
    return { hits: top.map(({ symbol: s, score }) => toHit(s, score, (id) => cat.cached(id))), total };
  };
  let r = await run();
  // "none" is the answer a file not yet checked or parsed would falsify (a warm start answers from the
  // stored catalog while its build checks the disk): it waits for the build, as a lookup by name does
  if (r.total === 0 && cat.status().state === 'building') {
    await cat.complete({ signal: call.signal });
    r = await run();
  }
  const pageOf = (list: SymbolHit[], total: number, meta: CallMeta) => paginate(list, { offset, maxResults, maxTokens: input.max_tokens, hash, meta, total });
  // Answers never come from a stale file: re-check the files of this page, re-rank if one changed.
  if (
    await cat.freshen(
      pageOf(r.hits, r.total, scratchMeta()).map((h) => h.file),
      { early: true },
    )
  )
    r = await run();
  const results = pageOf(r.hits, r.total, call.meta);
  for (const f of new Set(results.map((h) => h.file))) call.meta.addSourceFile(path.join(call.root, f), cat.files().get(f)?.size);
  // a hit from a file without a server says so; a workspace merely holding such files does not
  reportCatalog(cat, call.meta, { files: results.map((h) => h.file) });
  return { results, total: r.total };
}

export interface TextSearchInput {
  query: string;
  regex?: boolean | undefined;
  case_sensitive?: boolean | undefined;
  file_pattern?: string | undefined;
  max_results?: number | undefined;
  max_tokens?: number | undefined;
  context_lines?: number | undefined;
  cursor?: string | undefined;
}

export async function searchText(call: ServiceCall, input: TextSearchInput): Promise<{ matches: TextMatch[]; files_searched: number }> {
  const limits = call.env.limits;
  checkQuery(call, input.query);
  const hash = queryHash({ q: input.query, r: !!input.regex, c: !!input.case_sensitive, f: input.file_pattern, x: input.context_lines ?? 0 });
  const offset = decodeCursor(input.cursor, hash);
  const maxResults = input.max_results ?? 50;
  const r = await runTextSearch(call.root, {
    query: input.query,
    regex: !!input.regex,
    caseSensitive: !!input.case_sensitive,
    filePattern: input.file_pattern,
    contextLines: input.context_lines ?? 0,
    stopAfter: offset + maxResults + 1,
    maxFileBytes: limits.maxFileBytes,
    maxFiles: limits.maxFiles,
    extraIgnore: call.workspace.catalog.extraIgnore,
    manifests: projectManifests(),
    signal: call.signal,
  });
  const matches = paginate(r.matches, { offset, maxResults, maxTokens: input.max_tokens, hash, meta: call.meta });
  for (const hit of r.limitsHit) call.meta.limit(hit);
  for (const w of r.warnings) call.meta.warn(w);
  if (r.incomplete) call.meta.setIndexState('partial');
  const files = new Set(matches.map((m) => m.file));
  for (const abs of r.matchedFiles) if (files.has(path.relative(call.root, abs).split(path.sep).join('/'))) call.meta.addSourceFile(abs);
  return { matches, files_searched: r.filesSearched };
}
