/**
 * What language servers know beyond navigation: get_diagnostics, find_implementations, type_hierarchy,
 * get_hover, signature_help, rename_symbol, code_actions.
 */
import { z } from 'zod';

import { ACTION_KINDS } from '../../schema/vocabularies.js';
import { ServiceCall } from '../../service/call.js';
import { targetShape } from '../../service/navigation/resolve.js';
import { READ_ONLY, WRITES_FILES } from '../annotations.js';
import { SYMBOL_CALLER_ERRORS } from '../caller-errors.js';
import {
  CodeActionsOutput,
  FindImplementationsOutput,
  GetDiagnosticsOutput,
  GetHoverOutput,
  RenameSymbolOutput,
  SeveritySchema,
  SignatureHelpOutput,
  TypeHierarchyOutput,
} from '../contracts/server-knowledge.js';
import {
  actionsMarkdown,
  diagnosticsMarkdown,
  editMarkdown,
  hierarchyMarkdown,
  hoverMarkdown,
  implementationsMarkdown,
  signatureMarkdown,
} from '../render/server-knowledge.js';
import { defineOperation, type Operation } from '../types.js';

export const serverKnowledgeOperations: Operation[] = [
  defineOperation({
    name: 'get_diagnostics',
    title: 'Get diagnostics',
    description:
      'Errors and warnings from the language servers for the files as they are on disk now: `file`, ' +
      '`files`, `changed: true` (changed since git HEAD or since the last answer) or the whole workspace ' +
      '(at most `max_files`, default 50). `severity` keeps that level and worse. Use it to check an edit.',
    input: z.object({
      file: z.string().min(1).max(4096).optional().describe('One file, relative to the workspace root'),
      files: z.array(z.string().min(1).max(4096)).min(1).max(500).optional().describe('Several files'),
      changed: z.boolean().optional().describe('Files changed since HEAD (git) or since the last answer'),
      severity: SeveritySchema.optional().describe('Minimum severity listed (default hint: all)'),
      max_files: z.number().int().min(1).max(500).optional().describe('File budget for workspace-wide and changed-file answers (default 50)'),
      max_results: z.number().int().min(1).max(5000).optional().describe('Diagnostics listed at most (default 500); counts cover all'),
    }),
    output: GetDiagnosticsOutput,
    annotations: READ_ONLY,
    repl: { command: 'diag', positional: ['file'] },
    profile: 'core',
    callerErrors: ['FILE_NOT_FOUND', 'PATH_OUTSIDE_WORKSPACE'],
    waitsForServers: true,
    handler: (input, ctx) => ServiceCall.run(ctx, async (call) => (await import('../../service/diagnostics/diagnostics.js')).getDiagnostics(call, input)),
    markdown: diagnosticsMarkdown,
  }),
  defineOperation({
    name: 'find_implementations',
    title: 'Find implementations',
    description:
      'Types implementing or extending the target, or for a method the methods implementing or overriding ' +
      'it. From the server where it answers the request; else (`source: syntax+server`) from declaration ' +
      'headers read from parse trees and resolved by the server, up to 5 levels (said in _meta.warnings).',
    related: { type_hierarchy: 'for the whole tree' },
    input: z.object(targetShape),
    output: FindImplementationsOutput,
    annotations: READ_ONLY,
    repl: { command: 'impl', positional: ['symbol'] },
    callerErrors: SYMBOL_CALLER_ERRORS,
    waitsForServers: true,
    handler: (input, ctx) =>
      ServiceCall.run(ctx, async (call) => (await import('../../service/relations/implementations.js')).findImplementations(call, input)),
    markdown: implementationsMarkdown,
  }),
  defineOperation({
    name: 'type_hierarchy',
    title: 'Type hierarchy',
    description:
      'Supertypes and/or subtypes of a type as a tree (`direction` supertypes, subtypes or both; `depth` ' +
      "1..5, default 3). From the server's type-hierarchy requests where it has them, else (`source: " +
      'syntax+server`) from declaration headers in parse trees, each resolved by the server; supertypes ' +
      'outside the workspace are `external` leaves.',
    related: { find_implementations: 'for the implementations of a method' },
    input: z.object({
      ...targetShape,
      direction: z.enum(['supertypes', 'subtypes', 'both']).optional().describe('Default both'),
      depth: z.number().int().min(1).max(5).optional().describe('Levels of the tree (1..5, default 3)'),
      max_results: z.number().int().min(1).max(1000).optional().describe('Node budget of the whole tree (default 100)'),
    }),
    output: TypeHierarchyOutput,
    annotations: READ_ONLY,
    repl: { command: 'hier', positional: ['symbol'] },
    callerErrors: SYMBOL_CALLER_ERRORS,
    waitsForServers: true,
    handler: (input, ctx) => ServiceCall.run(ctx, async (call) => (await import('../../service/relations/type-hierarchy.js')).typeHierarchy(call, input)),
    markdown: hierarchyMarkdown,
  }),
  defineOperation({
    name: 'get_hover',
    title: 'Hover',
    description:
      "The language server's hover for a symbol, or at `file` + `line` + `column`: its markdown, code " +
      'blocks and prose apart, and for a function the parsed signature. `found: false` when the server ' +
      'shows nothing there.',
    input: z.object(targetShape),
    output: GetHoverOutput,
    annotations: READ_ONLY,
    repl: { command: 'hover', positional: ['symbol'] },
    callerErrors: SYMBOL_CALLER_ERRORS,
    waitsForServers: true,
    handler: (input, ctx) => ServiceCall.run(ctx, async (call) => (await import('../../service/navigation/hover.js')).getHover(call, input)),
    markdown: hoverMarkdown,
  }),
  defineOperation({
    name: 'signature_help',
    title: 'Signature help',
    description:
      'The signatures the server offers at a call site (`file`, `line`, `column` inside the arguments): ' +
      "each parameter's label and documentation, the active signature and parameter. An empty list: no " +
      'call there.',
    input: z.object({
      file: z.string().min(1).max(4096).describe('File path relative to the workspace root'),
      line: z.number().int().min(1).describe('1-based line'),
      column: z.number().int().min(1).describe("1-based column inside the call's parentheses"),
    }),
    output: SignatureHelpOutput,
    annotations: READ_ONLY,
    repl: { command: 'sig', positional: ['file', 'line', 'column'] },
    callerErrors: ['FILE_NOT_FOUND'],
    waitsForServers: true,
    handler: (input, ctx) => ServiceCall.run(ctx, async (call) => (await import('../../service/navigation/hover.js')).signatureHelp(call, input)),
    markdown: signatureMarkdown,
  }),
  defineOperation({
    name: 'rename_symbol',
    title: 'Rename symbol',
    description:
      'Rename a symbol everywhere the language server knows it. Without `apply` nothing is written: a diff ' +
      'per file with edit counts and content hashes. `apply: true` writes only if every file still has ' +
      'that content (`expected_hashes`), else CONTENT_MODIFIED; files are replaced atomically and servers ' +
      "and catalog re-synced. `not_renamed` lists occurrences the edit leaves (outside the server's " +
      'project); applying then needs `accept_not_renamed: true`. NOT_SUPPORTED where the server has no ' +
      'rename.',
    input: z.object({
      ...targetShape,
      new_name: z.string().min(1).max(500).describe('The new name'),
      apply: z.boolean().optional().describe('Write the edit (default false: preview only)'),
      expected_hashes: z.record(z.string(), z.string()).optional().describe('{file: content_hash} from the preview: apply only if the files are still those'),
      accept_not_renamed: z
        .boolean()
        .optional()
        .describe(
          "Apply even though `not_renamed` lists occurrences of the old name the server's edit leaves (default " +
            'false: such an apply is refused and nothing is written)',
        ),
    }),
    output: RenameSymbolOutput,
    annotations: WRITES_FILES,
    repl: { command: 'rename', positional: ['symbol', 'new_name'] },
    callerErrors: SYMBOL_CALLER_ERRORS,
    waitsForServers: true,
    handler: (input, ctx) => ServiceCall.run(ctx, async (call) => (await import('../../service/editing/rename.js')).renameSymbol(call, input)),
    markdown: editMarkdown,
  }),
  defineOperation({
    name: 'code_actions',
    title: 'Code actions',
    description:
      "The server's code actions for a file or lines of it (`start_line`..`end_line`; `only`: quickfix, " +
      'refactor, source, ...), each with its index, kind, the diagnostics it fixes and its edit as diffs. ' +
      "Nothing is written unless `apply` names an index; then a rename's rules hold (`expected_hashes`, " +
      'CONTENT_MODIFIED, atomic writes).',
    input: z.object({
      file: z.string().min(1).max(4096).describe('File path relative to the workspace root'),
      start_line: z.number().int().min(1).optional().describe('First line of the range (1-based; default the whole file)'),
      end_line: z.number().int().min(1).optional().describe('Last line of the range (default start_line, or the end of the file)'),
      only: z.enum(ACTION_KINDS).optional().describe('Only actions of this kind'),
      apply: z.number().int().min(0).optional().describe('Index of the action to apply (default: preview only)'),
      expected_hashes: z.record(z.string(), z.string()).optional().describe('{file: content_hash} from the preview'),
    }),
    output: CodeActionsOutput,
    annotations: WRITES_FILES,
    repl: { command: 'actions', positional: ['file'] },
    callerErrors: ['FILE_NOT_FOUND'],
    waitsForServers: true,
    handler: (input, ctx) => ServiceCall.run(ctx, async (call) => (await import('../../service/editing/code-actions.js')).codeActions(call, input)),
    markdown: actionsMarkdown,
  }),
];
