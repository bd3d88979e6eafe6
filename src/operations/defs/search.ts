/**
 * Symbol retrieval and search: get_symbol / get_symbols (exact source by byte
 * offset, optional re-hash), search_symbols (ranked over the catalog) and search_text (a pure-Node
 * grep through the file-safety pipeline). List results take max_results / max_tokens / cursor.
 * Handlers are thin: service/catalog-search.ts answers.
 */
import { z } from 'zod';

import { LspgateError } from '../../errors/errors.js';
import { SymbolKindSchema } from '../../schema/descriptors.js';
import { withMeta } from '../../schema/meta.js';
import { symbolRowShape } from '../../schema/rows.js';
import { ServiceCall } from '../../service/call.js';
import { targetShape } from '../../service/navigation/resolve.js';
import {
  getSymbol as symbolSourceOf,
  getSymbols as symbolSourcesOf,
  searchSymbols as rankedSymbols,
  searchText,
  type SymbolSource,
} from '../../service/search/catalog-search.js';
import { targetSymbolId } from '../../service/search/symbol-target.js';
import { READ_ONLY } from '../annotations.js';
import { SYMBOL_CALLER_ERRORS } from '../caller-errors.js';
import { defineOperation, type Operation } from '../types.js';

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

const MaxResults = z.number().int().min(1).max(1000);
const MaxTokens = z.number().int().min(1).max(1_000_000);
const Cursor = z.string().max(1000);

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
    'The exact source of one symbol, by byte offset from the catalog: no need to read its file. `symbol` ' +
    'takes a name, qualified name or id. `verify: true` re-hashes it (`_meta.content_verified`; a ' +
    'changed file is re-cataloged first); `context_lines` adds lines around it.',
  related: { get_symbols: 'for several at once', get_context: 'for its callers, callees, types and tests as well' },
  input: z.object({
    ...targetShape,
    verify: z.boolean().optional(),
    context_lines: z.number().int().min(0).max(50).optional(),
  }),
  output: withMeta({ symbol: CatalogSymbolSchema, source: z.string(), context: ContextSchema.optional() }),
  annotations: READ_ONLY,
  repl: { command: 'symbol', positional: ['symbol'] },
  profile: 'core',
  callerErrors: SYMBOL_CALLER_ERRORS,
  async handler(input, ctx) {
    const call = ServiceCall.from(ctx);
    return symbolSourceOf(call, await targetSymbolId(call, input), { verify: input.verify, contextLines: input.context_lines });
  },
  markdown: (r) => sourceMarkdown(r),
});

export const getSymbols = defineOperation({
  name: 'get_symbols',
  title: 'Source of several symbols',
  description:
    'The source of several symbols in one call, named by `symbols` (names, qualified names or ids) or ' +
    '`symbol_ids`, and an error entry with its code for each that cannot be read.',
  input: z.object({
    symbols: z.array(z.string().min(1).max(4096)).min(1).max(100).optional(),
    symbol_ids: z.array(z.string().min(1).max(4096)).min(1).max(100).optional(),
    verify: z.boolean().optional(),
  }),
  output: withMeta({
    symbols: z.array(SymbolSourceSchema),
    errors: z.array(z.object({ symbol_id: z.string().optional(), symbol: z.string().optional(), code: z.string(), message: z.string() })),
  }),
  annotations: READ_ONLY,
  handler: (input, ctx) => {
    if (!input.symbols && !input.symbol_ids) throw new LspgateError('INVALID_INPUT', 'give `symbols` (names or ids) or `symbol_ids`');
    return symbolSourcesOf(ServiceCall.from(ctx), input.symbol_ids ?? [], input.verify, input.symbols ?? []);
  },
  markdown: (r) => r.symbols.map(sourceMarkdown).join('\n') + r.errors.map((e) => `- ${e.symbol_id ?? e.symbol}: ${e.code} ${e.message}\n`).join(''),
});

const SearchHitSchema = z.object({
  ...symbolRowShape,
  kind: SymbolKindSchema,
  language: z.string(),
  end_line: z.number().int(),
  signature: z.string(),
  summary: z.string(),
  scope: z.enum(['module', 'member', 'local']).describe('Declared at module level, as a member of a type, or inside a function body'),
  score: z.number(),
});

export const searchSymbols = defineOperation({
  name: 'search_symbols',
  title: 'Search symbols',
  description:
    'Find declarations by name: exact > prefix > substring > fuzzy, also over qualified names, ' +
    'signatures and docs; source before tests, module-level before members. Filters: `kind`, `language`, ' +
    '`file_pattern` (glob).',
  related: {
    search_text: 'for strings, comments, config',
    search_code: 'by what code does',
    get_symbol: 'to read one',
  },
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
  annotations: READ_ONLY,
  repl: { command: 'search', positional: ['query'] },
  profile: 'core',
  handler: (input, ctx) => rankedSymbols(ServiceCall.from(ctx), input),
  markdown: (r) =>
    [
      `## ${r.total} symbol(s)`,
      '',
      ...r.results.map((h) => `- \`${h.symbol_id}\` ${h.file}:${h.line} — ${h.signature}${h.summary !== h.signature ? ` — ${h.summary}` : ''}`),
    ].join('\n') + '\n',
});

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
  answersFrom: 'text',
  title: 'Search text',
  description:
    'Search the text of workspace files (secrets and binaries never): literal, or `regex: true` in RE2 ' +
    'syntax (no backreferences or lookaround); case-insensitive unless `case_sensitive`. For what no ' +
    'declaration is named after: string literals, comments, config values.',
  related: { search_symbols: 'instead for declarations by name', search_code: 'by what code does' },
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
  annotations: READ_ONLY,
  repl: { command: 'grep', positional: ['query'] },
  profile: 'core',
  handler: (input, ctx) => searchText(ServiceCall.from(ctx), input),
  markdown: (r) =>
    [
      `## ${r.matches.length} match(es) in ${r.files_searched} files`,
      '',
      ...r.matches.flatMap((m) => [
        ...(m.before ?? []).map((l) => `  ${l}`),
        `- ${m.file}:${m.line}:${m.column}: ${m.text.trim()}`,
        ...(m.after ?? []).map((l) => `  ${l}`),
      ]),
    ].join('\n') + '\n',
});

export const searchOperations: Operation[] = [getSymbol, getSymbols, searchSymbols, searchTextOp];
