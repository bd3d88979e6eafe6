/**
 * What language servers know beyond navigation: get_diagnostics, find_implementations, type_hierarchy,
 * get_hover, signature_help, rename_symbol, code_actions.
 */
import { z } from 'zod';

import { ParamDescriptorSchema, ReturnDescriptorSchema } from '../../schema/descriptors.js';
import { withMeta } from '../../schema/meta.js';
import { treeNodeShape } from '../../schema/rows.js';
import { ServiceCall } from '../../service/call.js';
import { SEVERITIES } from '../../service/diagnostics/diagnostic-entries.js';
import { type DiagnosticsResult, getDiagnostics } from '../../service/diagnostics/diagnostics.js';
import { ACTION_KINDS, codeActions, type CodeActionsResult } from '../../service/editing/code-actions.js';
import { type RenameResult, renameSymbol } from '../../service/editing/rename.js';
import { getHover, type HoverResult, signatureHelp, type SignatureHelpResult } from '../../service/navigation/hover.js';
import { targetShape } from '../../service/navigation/resolve.js';
import { findImplementations, type ImplementationsResult } from '../../service/relations/implementations.js';
import { typeHierarchy, type TypeHierarchyResult, type TypeNode } from '../../service/relations/type-hierarchy.js';
import { READ_ONLY, WRITES_FILES } from '../annotations.js';
import { SYMBOL_CALLER_ERRORS } from '../caller-errors.js';
import { DefinitionSchema } from '../contracts/navigation.js';
import { defineOperation, type Operation } from '../types.js';

const SeveritySchema = z.enum(SEVERITIES);

const DiagnosticSchema = z.object({
  line: z.number().int(),
  column: z.number().int(),
  end_line: z.number().int(),
  end_column: z.number().int(),
  severity: SeveritySchema,
  code: z.string().optional(),
  source: z.string().optional(),
  message: z.string(),
  tags: z.array(z.enum(['unnecessary', 'deprecated'])).optional(),
  related: z.array(z.object({ file: z.string(), line: z.number().int(), column: z.number().int(), message: z.string() })).optional(),
});

const FileDiagnosticsSchema = z.object({
  file: z.string(),
  server: z.string(),
  mode: z
    .enum(['pull', 'request', 'push'])
    .describe(
      "pull: textDocument/diagnostic; request: the server's own diagnostics requests for the synced text " +
        "(tsserver's, through typescript-language-server); push: publishDiagnostics for this version, after " +
        'the server settled',
    ),
  version: z.number().int().describe('Document version the diagnostics were computed for'),
  content_hash: z.string().describe('sha256 of the file content the diagnostics were computed for'),
  diagnostics: z.array(DiagnosticSchema),
});

function diagnosticsMarkdown(r: DiagnosticsResult): string {
  const c = r.counts;
  const out = [`## Diagnostics: ${c.error} error(s), ${c.warning} warning(s), ${c.information} info, ${c.hint} hint(s) in ${r.files_checked} file(s)`, ''];
  for (const f of r.files) {
    if (!f.diagnostics.length) continue;
    out.push(`### ${f.file} (v${f.version}, ${f.mode}, ${f.content_hash.slice(0, 12)})`);
    for (const d of f.diagnostics)
      out.push(`- ${f.file}:${d.line}:${d.column} **${d.severity}**${d.code ? ` ${d.code}` : ''}${d.source ? ` (${d.source})` : ''}: ${d.message}`);
    out.push('');
  }
  for (const f of r.failed) out.push(`- ${f.file}: ${f.code} ${f.message}`);
  if (r.total === 0 && !r.failed.length) out.push('(no diagnostics)');
  return out.join('\n') + '\n';
}

function implementationsMarkdown(r: ImplementationsResult): string {
  const out = [
    `## ${r.implementations.length} implementation(s) of ${r.symbol} (${r.source === 'server' ? 'from the server' : 'from declaration headers read from parse trees, resolved by the server'})`,
    '',
  ];
  for (const d of r.implementations)
    out.push(
      `- ${d.kind} **${d.name}**${d.container ? ` in ${d.container}` : ''} — ${d.file}:${d.line}:${d.column}${d.symbol_id ? ` \`${d.symbol_id}\`` : ''}`,
    );
  if (!r.implementations.length) out.push('(none)');
  return out.join('\n') + '\n';
}

const TypeNodeSchema: z.ZodType<TypeNode> = z.lazy(() =>
  z.object({
    ...treeNodeShape,
    relation: z
      .enum(['extends', 'implements', 'embeds'])
      .optional()
      .describe('How the node relates to its parent: a base its header names, or `implements` by the server (Go)'),
    external: z.boolean().optional().describe('Outside the workspace (standard library, dependency): not expanded'),
    supertypes: z.array(TypeNodeSchema).optional(),
    subtypes: z.array(TypeNodeSchema).optional(),
  }),
);

function hierarchyMarkdown(r: TypeHierarchyResult): string {
  const out = [`## Type hierarchy of ${r.symbol} (${r.direction}, ${r.source === 'server' ? 'from the server' : "from the catalog's type relations"})`, ''];
  const line = (n: TypeNode) => `${n.kind} **${n.name}** — ${n.file}:${n.line}${n.cycle ? ' ↻ cycle' : ''}`;
  out.push(line(r.root));
  const walk = (nodes: TypeNode[] | undefined, edge: 'supertypes' | 'subtypes', depth: number) => {
    for (const n of nodes ?? []) {
      out.push(`${'  '.repeat(depth)}- ${edge === 'supertypes' ? '↑' : '↓'} ${line(n)}`);
      walk(n[edge], edge, depth + 1);
    }
  };
  walk(r.root.supertypes, 'supertypes', 0);
  walk(r.root.subtypes, 'subtypes', 0);
  return out.join('\n') + '\n';
}

function hoverMarkdown(r: HoverResult): string {
  if (!r.found) return `## Hover at ${r.symbol}\n\n(nothing)\n`;
  if (r.withheld) return `## Hover at ${r.symbol}\n\n(withheld: ${r.withheld})\n`;
  return `## Hover at ${r.symbol}\n\n${r.markdown}\n`;
}

function signatureMarkdown(r: SignatureHelpResult): string {
  const out = [`## Signature help at ${r.position}`, ''];
  r.signatures.forEach((s, i) => {
    out.push(`${i === r.active_signature ? '→ ' : '  '}\`${s.label}\``);
    s.parameters.forEach((p, j) =>
      out.push(`    ${j === r.active_parameter && i === r.active_signature ? '→' : '-'} \`${p.label}\`${p.documentation ? `: ${p.documentation}` : ''}`),
    );
  });
  if (r.withheld) out.push(`(withheld: ${r.withheld})`);
  else if (!r.signatures.length) out.push('(no call here)');
  return out.join('\n') + '\n';
}

const EditFileSchema = z.object({
  file: z.string(),
  content_hash: z.string().describe('sha256 of the content the edit was computed for (pass back in expected_hashes to apply)'),
  edits: z.number().int(),
  diff: z.string().describe('Unified diff of the file'),
  new_hash: z.string().optional().describe('sha256 of the written content (apply only)'),
});

function editMarkdown(r: RenameResult): string {
  const out = [`## Rename ${r.old_name} → ${r.new_name}: ${r.total_edits} edit(s) in ${r.total_files} file(s)${r.applied ? ' (applied)' : ' (preview)'}`, ''];
  for (const f of r.files) out.push('```diff', f.diff.trimEnd(), '```');
  if (r.backup_dir) out.push('', `backups: ${r.backup_dir}`);
  if (r.not_renamed.length) {
    out.push(
      '',
      `**Not renamed** (${r.not_renamed.length} occurrence(s) of \`${r.old_name}\` the server's edit leaves; apply needs \`accept_not_renamed: true\`):`,
    );
    for (const n of r.not_renamed)
      out.push(
        `- ${n.file}:${n.line}:${n.column} (${n.resolves === 'target' ? 'the server resolves it to the renamed symbol' : 'the server resolves it to nothing'}): \`${n.text}\``,
      );
  }
  return out.join('\n') + '\n';
}

function actionsMarkdown(r: CodeActionsResult): string {
  const out = [`## ${r.actions.length} code action(s) for ${r.file}${r.applied !== undefined ? ` (applied #${r.applied})` : ''}`, ''];
  for (const a of r.actions) {
    out.push(`${a.index}. **${a.title}**${a.kind ? ` (${a.kind})` : ''}${a.is_preferred ? ' ★' : ''}${a.command ? ` — command ${a.command}, no edit` : ''}`);
    for (const f of a.files) out.push('```diff', f.diff.trimEnd(), '```');
  }
  return out.join('\n') + '\n';
}

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
    output: withMeta({
      files: z.array(FileDiagnosticsSchema),
      total: z.number().int(),
      counts: z.object({ error: z.number().int(), warning: z.number().int(), information: z.number().int(), hint: z.number().int() }),
      files_checked: z.number().int(),
      failed: z.array(z.object({ file: z.string(), code: z.string(), message: z.string() })).describe('Files that could not be diagnosed, with the error code'),
    }),
    annotations: READ_ONLY,
    repl: { command: 'diag', positional: ['file'] },
    profile: 'core',
    callerErrors: ['FILE_NOT_FOUND', 'PATH_OUTSIDE_WORKSPACE'],
    waitsForServers: true,
    handler: (input, ctx) => ServiceCall.run(ctx, (call) => getDiagnostics(call, input)),
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
    output: withMeta({ symbol: z.string(), source: z.enum(['server', 'syntax+server']), implementations: z.array(DefinitionSchema) }),
    annotations: READ_ONLY,
    repl: { command: 'impl', positional: ['symbol'] },
    callerErrors: SYMBOL_CALLER_ERRORS,
    waitsForServers: true,
    handler: (input, ctx) => ServiceCall.run(ctx, (call) => findImplementations(call, input)),
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
    output: withMeta({
      symbol: z.string(),
      direction: z.enum(['supertypes', 'subtypes', 'both']),
      source: z.enum(['server', 'syntax+server']),
      root: TypeNodeSchema,
    }),
    annotations: READ_ONLY,
    repl: { command: 'hier', positional: ['symbol'] },
    callerErrors: SYMBOL_CALLER_ERRORS,
    waitsForServers: true,
    handler: (input, ctx) => ServiceCall.run(ctx, (call) => typeHierarchy(call, input)),
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
    output: withMeta({
      symbol: z.string(),
      found: z.boolean(),
      markdown: z.string(),
      code: z.array(z.string()),
      documentation: z.string(),
      signature: z
        .object({
          text: z.string(),
          parameters: z.array(ParamDescriptorSchema).optional(),
          returns: z.array(ReturnDescriptorSchema).optional(),
        })
        .optional(),
      withheld: z
        .string()
        .optional()
        .describe('Why the hover is not shown: its symbol is declared in a secret file, or outside the workspace and not library code'),
    }),
    annotations: READ_ONLY,
    repl: { command: 'hover', positional: ['symbol'] },
    callerErrors: SYMBOL_CALLER_ERRORS,
    waitsForServers: true,
    handler: (input, ctx) => ServiceCall.run(ctx, (call) => getHover(call, input)),
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
    output: withMeta({
      position: z.string(),
      signatures: z.array(
        z.object({
          label: z.string(),
          documentation: z.string().optional(),
          parameters: z.array(z.object({ label: z.string(), documentation: z.string().optional() })),
        }),
      ),
      active_signature: z.number().int().optional(),
      active_parameter: z.number().int().optional(),
      withheld: z
        .string()
        .optional()
        .describe('Why no signature is shown: the called function is declared in a secret file, or outside the workspace and not library code'),
    }),
    annotations: READ_ONLY,
    repl: { command: 'sig', positional: ['file', 'line', 'column'] },
    callerErrors: ['FILE_NOT_FOUND'],
    waitsForServers: true,
    handler: (input, ctx) => ServiceCall.run(ctx, (call) => signatureHelp(call, input)),
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
    output: withMeta({
      symbol: z.string(),
      old_name: z.string(),
      new_name: z.string(),
      applied: z.boolean(),
      total_edits: z.number().int(),
      total_files: z.number().int(),
      files: z.array(EditFileSchema),
      backup_dir: z.string().optional().describe('apply only: where the old contents were copied (<cache>/backups/<workspace id>/<journal id>/<file>)'),
      not_renamed: z
        .array(
          z.object({
            file: z.string(),
            line: z.number().int(),
            column: z.number().int(),
            text: z.string().describe('The line, trimmed'),
            resolves: z
              .enum(['target', 'nothing'])
              .describe("The server's definition there: the renamed symbol, or nothing (a comment, a string, a file outside its project)"),
          }),
        )
        .describe('Occurrences of the old name the edit leaves that are not another symbol'),
    }),
    annotations: WRITES_FILES,
    repl: { command: 'rename', positional: ['symbol', 'new_name'] },
    callerErrors: SYMBOL_CALLER_ERRORS,
    waitsForServers: true,
    handler: (input, ctx) => ServiceCall.run(ctx, (call) => renameSymbol(call, input)),
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
    output: withMeta({
      file: z.string(),
      applied: z.number().int().optional(),
      backup_dir: z.string().optional().describe('apply only: where the old contents were copied'),
      actions: z.array(
        z.object({
          index: z.number().int(),
          title: z.string(),
          kind: z.string().optional(),
          is_preferred: z.boolean().optional(),
          fixes: z.array(z.string()).optional().describe('Messages of the diagnostics it fixes'),
          command: z.string().optional().describe('A server command with no edit: cannot be previewed or applied'),
          files: z.array(EditFileSchema),
        }),
      ),
    }),
    annotations: WRITES_FILES,
    repl: { command: 'actions', positional: ['file'] },
    callerErrors: ['FILE_NOT_FOUND'],
    waitsForServers: true,
    handler: (input, ctx) => ServiceCall.run(ctx, (call) => codeActions(call, input)),
    markdown: actionsMarkdown,
  }),
];
