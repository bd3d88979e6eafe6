/**
 * Navigation operations: find_definition, find_references, find_callers, find_callees, open_at.
 */
import { z } from 'zod';

import { ServiceCall } from '../../service/call.js';
import { targetShape } from '../../service/navigation/resolve.js';
import { READ_ONLY } from '../annotations.js';
import { SYMBOL_CALLER_ERRORS } from '../caller-errors.js';
import { FindDefinitionOutput, FindReferencesOutput, OpenAtOutput, treeOutput } from '../contracts/navigation.js';
import { findDefinitionMarkdown, findReferencesMarkdown, openAtMarkdown, treeMarkdown } from '../render/navigation.js';
import { defineOperation, type Operation } from '../types.js';

const treeInput = z.object({
  ...targetShape,
  depth: z.number().int().min(1).max(5).optional().describe('Levels of the tree (1..5, default 1)'),
  max_results: z.number().int().min(1).max(1000).optional().describe('Node budget of the whole tree (default 50)'),
});

export const navigationOperations: Operation[] = [
  defineOperation({
    name: 'find_definition',
    title: 'Find definition',
    description:
      'Where a symbol is declared: each definition with its kind, enclosing symbol, symbol_id and a 3-line ' +
      'preview. Name it by `symbol`, `symbol_id`, or `file` + `line` (+ `column`) of a use. A name several ' +
      'declarations share equally answers them ranked (`tied`; `total` counts them).',
    related: { find_references: 'for its uses', get_symbol: 'for its source' },
    input: z.object(targetShape),
    output: FindDefinitionOutput,
    annotations: READ_ONLY,
    repl: { command: 'def', positional: ['symbol'] },
    profile: 'core',
    cacheable: true,
    callerErrors: ['SYMBOL_NOT_FOUND', 'FILE_NOT_FOUND', 'PATH_OUTSIDE_WORKSPACE', 'AMBIGUOUS_SYMBOL'],
    waitsForServers: true,
    handler: (input, ctx) => ServiceCall.run(ctx, async (call) => (await import('../../service/navigation/references.js')).findDefinition(call, input)),
    markdown: findDefinitionMarkdown,
  }),
  defineOperation({
    name: 'find_references',
    title: 'Find references',
    description:
      'Every use of a symbol from the language server (not text search), with preview, write flag and ' +
      'enclosing function. `total` counts all; `max_results` (default 100) cuts the list.',
    related: { find_callers: 'instead for the calling functions as a tree' },
    input: z.object({
      ...targetShape,
      include_declaration: z.boolean().optional().describe('Include the declaration itself (default true)'),
      max_results: z.number().int().min(1).max(5000).optional().describe('Maximum references listed (default 100)'),
    }),
    output: FindReferencesOutput,
    annotations: READ_ONLY,
    repl: { command: 'refs', positional: ['symbol'] },
    profile: 'core',
    cacheable: true,
    callerErrors: SYMBOL_CALLER_ERRORS,
    waitsForServers: true,
    handler: (input, ctx) => ServiceCall.run(ctx, async (call) => (await import('../../service/navigation/references.js')).findReferences(call, input)),
    markdown: findReferencesMarkdown,
  }),
  defineOperation({
    name: 'find_callers',
    title: 'Find callers',
    description:
      'The functions that call the target, as a tree to `depth` (1..5) with each call site; cycles are ' +
      'marked, not expanded. Where the server has no call hierarchy, callers come from references (said in ' +
      '_meta.warnings).',
    related: { find_callees: 'for what it calls', get_context: 'for one hop of callers and callees with the source' },
    input: treeInput,
    output: treeOutput,
    annotations: READ_ONLY,
    repl: { command: 'callers', positional: ['symbol'] },
    profile: 'core',
    cacheable: true,
    callerErrors: SYMBOL_CALLER_ERRORS,
    waitsForServers: true,
    wide: true,
    handler: (input, ctx) => ServiceCall.run(ctx, async (call) => (await import('../../service/navigation/call-tree.js')).callTree(call, input, 'incoming')),
    markdown: (r) => treeMarkdown('Callers', r),
  }),
  defineOperation({
    name: 'find_callees',
    title: 'Find callees',
    description:
      'The functions the target calls, as a tree to `depth` (1..5) with the call sites; calls into libraries are counted in _meta.warnings, not listed.',
    related: { find_callers: 'for who calls it' },
    input: treeInput,
    output: treeOutput,
    annotations: READ_ONLY,
    repl: { command: 'callees', positional: ['symbol'] },
    cacheable: true,
    callerErrors: SYMBOL_CALLER_ERRORS,
    waitsForServers: true,
    wide: true,
    handler: (input, ctx) => ServiceCall.run(ctx, async (call) => (await import('../../service/navigation/call-tree.js')).callTree(call, input, 'outgoing')),
    markdown: (r) => treeMarkdown('Callees', r),
  }),
  defineOperation({
    name: 'open_at',
    answersFrom: 'text',
    title: 'Open at line',
    description:
      'Lines around a line of a file (`context_lines` each side, default 10) and the symbol enclosing it: ' +
      'to read a location an answer gave. Secret files are refused.',
    input: z.object({
      file: z.string().min(1).max(4096).describe('File path relative to the workspace root'),
      line: z.number().int().min(1).describe('1-based line'),
      context_lines: z.number().int().min(0).max(50).optional().describe('Lines before and after (default 10)'),
    }),
    output: OpenAtOutput,
    annotations: READ_ONLY,
    repl: { command: 'open', positional: ['file', 'line'] },
    callerErrors: ['FILE_NOT_FOUND', 'PATH_OUTSIDE_WORKSPACE', 'SECRET_FILE'],
    handler: (input, ctx) => ServiceCall.run(ctx, async (call) => (await import('../../service/workspace/workspace-info.js')).openAt(call, input)),
    markdown: openAtMarkdown,
  }),
];
