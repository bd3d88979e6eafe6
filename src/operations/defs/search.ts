/**
 * Symbol retrieval and search: get_symbol / get_symbols (exact source by byte
 * offset, optional re-hash), search_symbols (ranked over the catalog) and search_text (a pure-Node
 * grep through the file-safety pipeline). List results take max_results / max_tokens / cursor.
 * Handlers are thin: service/catalog-search.ts answers.
 */
import { z } from 'zod';

import { LspgateError } from '../../errors/errors.js';
import { SymbolKindSchema } from '../../schema/descriptors.js';
import { ServiceCall } from '../../service/call.js';
import { targetShape } from '../../service/navigation/resolve.js';
import { getSymbol as symbolSourceOf, getSymbols as symbolSourcesOf, searchSymbols as rankedSymbols, searchText } from '../../service/search/catalog-search.js';
import { targetSymbolId } from '../../service/search/symbol-target.js';
import { READ_ONLY } from '../annotations.js';
import { SYMBOL_CALLER_ERRORS } from '../caller-errors.js';
import { GetSymbolOutput, GetSymbolsOutput, SearchSymbolsOutput, SearchTextOutput } from '../contracts/search.js';
import { searchSymbolsMarkdown, searchTextMarkdown, sourceMarkdown } from '../render/search.js';
import { defineOperation, type Operation } from '../types.js';

const MaxResults = z.number().int().min(1).max(1000);
const MaxTokens = z.number().int().min(1).max(1_000_000);
const Cursor = z.string().max(1000);

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
  output: GetSymbolOutput,
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
  output: GetSymbolsOutput,
  annotations: READ_ONLY,
  handler: (input, ctx) => {
    if (!input.symbols && !input.symbol_ids) throw new LspgateError('INVALID_INPUT', 'give `symbols` (names or ids) or `symbol_ids`');
    return symbolSourcesOf(ServiceCall.from(ctx), input.symbol_ids ?? [], input.verify, input.symbols ?? []);
  },
  markdown: (r) => r.symbols.map(sourceMarkdown).join('\n') + r.errors.map((e) => `- ${e.symbol_id ?? e.symbol}: ${e.code} ${e.message}\n`).join(''),
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
  output: SearchSymbolsOutput,
  annotations: READ_ONLY,
  repl: { command: 'search', positional: ['query'] },
  profile: 'core',
  handler: (input, ctx) => rankedSymbols(ServiceCall.from(ctx), input),
  markdown: searchSymbolsMarkdown,
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
  output: SearchTextOutput,
  annotations: READ_ONLY,
  repl: { command: 'grep', positional: ['query'] },
  profile: 'core',
  handler: (input, ctx) => searchText(ServiceCall.from(ctx), input),
  markdown: searchTextMarkdown,
});

export const searchOperations: Operation[] = [getSymbol, getSymbols, searchSymbols, searchTextOp];
