/**
 * Symbol retrieval and search (issue 4 part 4): get_symbol / get_symbols (exact source by byte
 * offset, optional re-hash), search_symbols (ranked over the catalog) and search_text (a pure-Node
 * grep through the file-safety pipeline). List results take max_results / max_tokens / cursor.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { catalogOf, type WorkspaceCatalog } from '../../catalog/catalog.js';
import { sha256 } from '../../catalog/flatten.js';
import { decodeCursor, paginate, queryHash } from '../../catalog/paging.js';
import { symbolFilter } from '../../catalog/symbol-index.js';
import { rankSymbols } from '../../catalog/symbol-search.js';
import { searchText as runTextSearch } from '../../catalog/text-search.js';
import type { CatalogSymbol } from '../../catalog/types.js';
import { LspgateError, toLspgateError } from '../../errors/errors.js';
import { SymbolKindSchema } from '../../schema/descriptors.js';
import { withMeta } from '../../schema/meta.js';
import type { MetaCollector } from '../meta-collector.js';
import { defineOperation, type Operation } from '../types.js';
import { reportCatalog } from './repository.js';

export const CatalogSymbolSchema = z.object({
  symbol_id: z.string(),
  file: z.string(),
  name: z.string(),
  qualified_name: z.string(),
  kind: SymbolKindSchema,
  lsp_kind: z.number().int(),
  language: z.string(),
  server: z.string(),
  signature: z.string(),
  summary: z.string(),
  docstring: z.string().optional(),
  parent: z.string().optional(),
  package: z.string().optional(),
  namespace: z.string().optional(),
  line: z.number().int(),
  end_line: z.number().int(),
  selection_line: z.number().int(),
  selection_column: z.number().int(),
  byte_offset: z.number().int(),
  byte_length: z.number().int(),
  content_hash: z.string(),
});

const ContextSchema = z.object({ start_line: z.number().int(), end_line: z.number().int(), before: z.string(), after: z.string() });
const SymbolSourceSchema = z.object({ symbol: CatalogSymbolSchema, source: z.string(), context: ContextSchema.optional() });
type SymbolSource = z.infer<typeof SymbolSourceSchema>;

const MaxResults = z.number().int().min(1).max(1000);
const MaxTokens = z.number().int().min(1).max(1_000_000);
const Cursor = z.string().max(1000);

function notFound(id: string): LspgateError {
  return new LspgateError('SYMBOL_NOT_FOUND', `no symbol ${id}; find ids with search_symbols or get_file_outline`, { symbol_id: id });
}

/** The symbol's exact source (by byte offset), verified against its content hash when asked. */
async function symbolSource(cat: WorkspaceCatalog, id: string, opts: { verify?: boolean; contextLines?: number }, meta: MetaCollector): Promise<SymbolSource> {
  let sym = opts.verify ? ((await cat.peek(id)) ?? (await cat.byId(id))) : await cat.byId(id);
  if (!sym) throw notFound(id);
  const abs = path.join(cat.root, sym.file);
  let bytes = await readFile(abs);
  if (opts.verify) {
    const ok = sha256(bytes.subarray(sym.byte_offset, sym.byte_offset + sym.byte_length)) === sym.content_hash;
    meta.contentVerified = meta.contentVerified === false ? false : ok;
    if (!ok) {
      meta.warn(`${sym.file} changed since it was cataloged; it was re-cataloged and the current source is returned`);
      await cat.refresh([sym.file]);
      sym = await cat.peek(id);
      if (!sym) throw new LspgateError('SYMBOL_NOT_FOUND', `${id} no longer exists: ${id.split('::')[0]} changed on disk`, { symbol_id: id, file_changed: true });
      bytes = await readFile(abs);
    }
  }
  meta.addSourceFile(abs, bytes.length);
  const source = bytes.subarray(sym.byte_offset, sym.byte_offset + sym.byte_length).toString('utf8');
  const out: SymbolSource = { symbol: sym, source };
  const n = opts.contextLines ?? 0;
  if (n > 0) {
    const lines = bytes.toString('utf8').split(/\r\n|\r|\n/);
    const start = Math.max(1, sym.line - n);
    const end = Math.min(lines.length, sym.end_line + n);
    out.context = { start_line: start, end_line: end, before: lines.slice(start - 1, sym.line - 1).join('\n'), after: lines.slice(sym.end_line, end).join('\n') };
  }
  return out;
}

function sourceMarkdown(s: SymbolSource): string {
  const sym = s.symbol;
  const fence = '`'.repeat(Math.max(3, ...[...s.source.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  const body = s.context ? `${s.context.before}\n${s.source}\n${s.context.after}` : s.source;
  return `### ${sym.qualified_name} (${sym.kind}) — ${sym.file}:${sym.line}-${sym.end_line}\n\`${sym.symbol_id}\`\n\n${fence}${sym.language}\n${body}\n${fence}\n`;
}

export const getSymbol = defineOperation({
  name: 'get_symbol',
  title: 'Source of one symbol',
  description:
    'The exact source of one symbol by its `symbol_id` (`path::Qualified.name#kind`, from search_symbols or get_file_outline), read by byte offset — no need to read the whole file. `verify: true` re-hashes the bytes and sets `_meta.content_verified` (false means the file changed; it is re-cataloged and the current source returned). `context_lines` adds lines around it.',
  input: z.object({
    symbol_id: z.string().min(1).max(4096),
    verify: z.boolean().optional(),
    context_lines: z.number().int().min(0).max(50).optional(),
  }),
  output: withMeta({ symbol: CatalogSymbolSchema, source: z.string(), context: ContextSchema.optional() }),
  annotations: { readOnlyHint: true, idempotentHint: true },
  repl: { command: 'symbol', positional: ['symbol_id'] },
  async handler(input, ctx) {
    const cat = catalogOf(ctx.workspace);
    const r = await symbolSource(cat, input.symbol_id, { verify: input.verify, contextLines: input.context_lines }, ctx.meta);
    reportCatalog(cat, ctx.meta);
    return r;
  },
  markdown: (r) => sourceMarkdown(r),
});

export const getSymbols = defineOperation({
  name: 'get_symbols',
  title: 'Source of several symbols',
  description: 'Batch get_symbol: the source of each id that exists, and an error entry (with its code) for each that does not.',
  input: z.object({ symbol_ids: z.array(z.string().min(1).max(4096)).min(1).max(100), verify: z.boolean().optional() }),
  output: withMeta({ symbols: z.array(SymbolSourceSchema), errors: z.array(z.object({ symbol_id: z.string(), code: z.string(), message: z.string() })) }),
  annotations: { readOnlyHint: true, idempotentHint: true },
  async handler(input, ctx) {
    const cat = catalogOf(ctx.workspace);
    const symbols: SymbolSource[] = [];
    const errors: { symbol_id: string; code: string; message: string }[] = [];
    for (const id of input.symbol_ids) {
      try {
        symbols.push(await symbolSource(cat, id, { verify: input.verify }, ctx.meta));
      } catch (e) {
        const err = toLspgateError(e);
        if (err.code === 'CANCELLED' || err.code === 'INTERNAL') throw err;
        errors.push({ symbol_id: id, code: err.code, message: err.message });
      }
    }
    reportCatalog(cat, ctx.meta);
    return { symbols, errors };
  },
  markdown: (r) => r.symbols.map(sourceMarkdown).join('\n') + r.errors.map((e) => `- ${e.symbol_id}: ${e.code} ${e.message}\n`).join(''),
});

const SearchHitSchema = z.object({
  symbol_id: z.string(),
  name: z.string(),
  qualified_name: z.string(),
  kind: SymbolKindSchema,
  language: z.string(),
  file: z.string(),
  line: z.number().int(),
  end_line: z.number().int(),
  signature: z.string(),
  summary: z.string(),
  score: z.number(),
});

export const searchSymbols = defineOperation({
  name: 'search_symbols',
  title: 'Search symbols',
  description:
    'Find symbols across the workspace catalog by name (exact > prefix > substring > fuzzy), qualified name, signature, summary and docstring, best first. Filter by `kind` (function, method, class...), `language`, `file_pattern` (glob like `src/**/*.ts` or `*.py`). Returns ids for get_symbol; pages with max_results / max_tokens and `_meta.next_cursor`.',
  input: z.object({
    query: z.string().min(1).max(2000),
    kind: z.union([SymbolKindSchema, z.array(SymbolKindSchema)]).optional(),
    language: z.string().max(50).optional(),
    file_pattern: z.string().max(500).optional(),
    max_results: MaxResults.optional().describe('Default 20'),
    max_tokens: MaxTokens.optional().describe('Approximate token budget of the returned items (bytes/4)'),
    cursor: Cursor.optional().describe('`_meta.next_cursor` of the previous page of the same query'),
  }),
  output: withMeta({ results: z.array(SearchHitSchema), total: z.number().int() }),
  annotations: { readOnlyHint: true, idempotentHint: true },
  repl: { command: 'search', positional: ['query'] },
  async handler(input, ctx) {
    const cat = catalogOf(ctx.workspace);
    if (input.query.length > ctx.workspace.gateway.limits.maxQueryLength) throw new LspgateError('INVALID_INPUT', `query is longer than maxQueryLength ${ctx.workspace.gateway.limits.maxQueryLength}`);
    const hash = queryHash({ q: input.query, k: input.kind, l: input.language, f: input.file_pattern });
    const offset = decodeCursor(input.cursor, hash);
    const run = async () => {
      const filter = symbolFilter({ kind: input.kind, language: input.language, file_pattern: input.file_pattern }, (id) => cat.index.byId(id));
      return rankSymbols((await cat.all()).filter(filter), input.query).map(({ symbol: s, score }) => toHit(s, score));
    };
    let hits = await run();
    const pageOf = (list: typeof hits, meta: MetaCollector) => paginate(list, { offset, maxResults: input.max_results ?? 20, maxTokens: input.max_tokens, hash, meta });
    // Answers never come from a stale file: re-check the files of this page, re-rank if one changed.
    if (await cat.freshen(pageOf(hits, scratchMeta()).map((h) => h.file))) hits = await run();
    const results = pageOf(hits, ctx.meta);
    for (const f of new Set(results.map((h) => h.file))) ctx.meta.addSourceFile(path.join(cat.root, f), cat.index.files.get(f)?.size);
    reportCatalog(cat, ctx.meta);
    return { results, total: hits.length };
  },
  markdown: (r) => [`## ${r.total} symbol(s)`, '', ...r.results.map((h) => `- \`${h.symbol_id}\` ${h.file}:${h.line} — ${h.signature}${h.summary !== h.signature ? ` — ${h.summary}` : ''}`)].join('\n') + '\n',
});

function toHit(s: CatalogSymbol, score: number): z.infer<typeof SearchHitSchema> {
  return { symbol_id: s.symbol_id, name: s.name, qualified_name: s.qualified_name, kind: s.kind, language: s.language, file: s.file, line: s.line, end_line: s.end_line, signature: s.signature, summary: s.summary, score };
}

/** A throwaway collector for a trial pagination (its truncation must not reach the answer). */
function scratchMeta(): MetaCollector {
  return { truncate() {}, limit() {} } as unknown as MetaCollector;
}

const TextMatchSchema = z.object({
  file: z.string(),
  line: z.number().int(),
  column: z.number().int(),
  text: z.string(),
  before: z.array(z.string()).optional(),
  after: z.array(z.string()).optional(),
});

export const searchTextOp = defineOperation({
  name: 'search_text',
  title: 'Search text',
  description:
    'Full-text search over the workspace files (any text file that passes the file-safety pipeline: .gitignore, skip patterns, no secrets, no binaries). Literal by default, `regex: true` for a regular expression in RE2 syntax (linear time: no backreferences or lookaround; JavaScript named groups accepted); case-insensitive unless `case_sensitive`. Use it when symbol search misses: string literals, comments, config values. Pages with max_results / max_tokens / cursor.',
  input: z.object({
    query: z.string().min(1).max(2000),
    regex: z.boolean().optional(),
    case_sensitive: z.boolean().optional(),
    file_pattern: z.string().max(500).optional(),
    max_results: MaxResults.optional().describe('Default 50'),
    max_tokens: MaxTokens.optional(),
    context_lines: z.number().int().min(0).max(10).optional(),
    cursor: Cursor.optional(),
  }),
  output: withMeta({ matches: z.array(TextMatchSchema), files_searched: z.number().int() }),
  annotations: { readOnlyHint: true, idempotentHint: true },
  repl: { command: 'grep', positional: ['query'] },
  async handler(input, ctx) {
    const ws = ctx.workspace;
    const limits = ws.gateway.limits;
    if (input.query.length > limits.maxQueryLength) throw new LspgateError('INVALID_INPUT', `query is longer than maxQueryLength ${limits.maxQueryLength}`);
    const hash = queryHash({ q: input.query, r: !!input.regex, c: !!input.case_sensitive, f: input.file_pattern, x: input.context_lines ?? 0 });
    const offset = decodeCursor(input.cursor, hash);
    const maxResults = input.max_results ?? 50;
    const r = await runTextSearch(ws.root, {
      query: input.query,
      regex: !!input.regex,
      caseSensitive: !!input.case_sensitive,
      filePattern: input.file_pattern,
      contextLines: input.context_lines ?? 0,
      stopAfter: offset + maxResults + 1,
      maxFileBytes: limits.maxFileBytes,
      maxFiles: limits.maxFiles,
      extraIgnore: catalogOf(ws).extraIgnore,
      signal: ctx.signal,
    });
    const matches = paginate(r.matches, { offset, maxResults, maxTokens: input.max_tokens, hash, meta: ctx.meta });
    for (const hit of r.limitsHit) ctx.meta.limit(hit);
    for (const w of r.warnings) ctx.meta.warn(w);
    if (r.incomplete) ctx.meta.setIndexState('partial');
    const files = new Set(matches.map((m) => m.file));
    for (const abs of r.matchedFiles) if (files.has(path.relative(ws.root, abs).split(path.sep).join('/'))) ctx.meta.addSourceFile(abs);
    return { matches, files_searched: r.filesSearched };
  },
  markdown: (r) =>
    [`## ${r.matches.length} match(es) in ${r.files_searched} files`, '', ...r.matches.flatMap((m) => [...(m.before ?? []).map((l) => `  ${l}`), `- ${m.file}:${m.line}:${m.column}: ${m.text.trim()}`, ...(m.after ?? []).map((l) => `  ${l}`)])].join('\n') + '\n',
});

export const searchOperations: Operation[] = [getSymbol, getSymbols, searchSymbols, searchTextOp] as unknown as Operation[];
