/**
 * Descriptor operations (schema/descriptors.ts): find_type_definition → ClassDescriptor, get_function_details →
 * FunctionDescriptor, list_package_exports → SymbolDescriptor[], get_file_outline → OutlineSymbol tree.
 */
import { z } from 'zod';

import {
  type ClassDescriptor,
  ClassDescriptorSchema,
  type FunctionDescriptor,
  FunctionDescriptorSchema,
  type OutlineSymbol,
  OutlineSymbolSchema,
  SymbolDescriptorSchema,
} from '../../schema/descriptors.js';
import { withMeta } from '../../schema/meta.js';
import { type CompactOutlineNode, CompactOutlineNodeSchema, OutlineDetailSchema } from '../../schema/outline.js';
import { ServiceCall } from '../../service/call.js';
import { catalogOutline } from '../../service/descriptors/catalog-outline.js';
import { fileOutline, functionDetails, typeDefinition } from '../../service/descriptors/descriptors.js';
import { packageExports } from '../../service/descriptors/exports.js';
import { shapeOutline } from '../../service/descriptors/outline-detail.js';
import { strictField } from '../../service/navigation/resolve.js';
import { READ_ONLY } from '../annotations.js';
import { defineOperation, type Operation } from '../types.js';

const scope = {
  package: z.string().max(500).optional().describe('Package / module path (TS: `src/util/strings`; Go import path; Python dotted module)'),
  namespace: z.string().max(500).optional().describe('Namespace (PHP `App\\Models`, TS namespace `Geometry.Factory`)'),
  language: z.string().max(50).optional().describe('typescript, javascript, go, python, php'),
};

function loc(l: { file_path?: string | undefined; start_line?: number | undefined; end_line?: number | undefined } | undefined): string {
  return l?.file_path ? `${l.file_path}:${l.start_line ?? '?'}-${l.end_line ?? '?'}` : '';
}

function functionMarkdown(f: FunctionDescriptor, level = '##'): string[] {
  const out = [`${level} ${f.kind} ${f.receiver ? `${f.receiver}.` : ''}${f.name}`, '', '```', f.signature ?? f.name, '```'];
  if (f.description) out.push('', f.description);
  const flags = [f.visibility, f.is_static ? 'static' : '', f.is_abstract ? 'abstract' : '', ...(f.tags ?? [])].filter(Boolean);
  if (flags.length) out.push('', `_${flags.join(', ')}_ — ${loc(f.location)}`);
  else out.push('', loc(f.location));
  if (f.parameters?.length) {
    out.push('', '| parameter | type | default | description |', '|---|---|---|---|');
    for (const p of f.parameters)
      out.push(`| ${p.variadic ? '...' : ''}${p.name}${p.optional ? '?' : ''} | ${p.type ?? ''} | ${p.default ?? ''} | ${p.description ?? ''} |`);
  }
  for (const r of f.returns ?? []) out.push('', `Returns \`${r.type}\`${r.description ? ` — ${r.description}` : ''}`);
  const overloads = f.metadata?.overloads;
  if (Array.isArray(overloads)) out.push('', 'Overloads:', ...overloads.map((o) => `- \`${String(o)}\``));
  if (f.code) out.push('', '```', f.code, '```');
  return out;
}

function classMarkdown(c: ClassDescriptor & { symbol_id?: string }): string {
  const out = [`## ${c.kind} ${c.full_name ?? c.name}`, '', '```', c.signature ?? c.name, '```'];
  if (c.description) out.push('', c.description);
  out.push('', `${loc(c.location)}${c.symbol_id ? ` \`${c.symbol_id}\`` : ''}`);
  if (c.relations?.length) out.push('', ...c.relations.map((r) => `- ${r.type} **${r.target}**${r.target_full_name ? ` (${r.target_full_name})` : ''}`));
  if (c.fields?.length) {
    out.push('', '### Fields', '', '| name | type | modifiers | default | description |', '|---|---|---|---|---|');
    for (const f of c.fields) {
      const mods = [f.visibility, f.is_static ? 'static' : '', f.is_readonly ? 'readonly' : '', f.optional ? 'optional' : '', ...(f.tags ?? [])]
        .filter(Boolean)
        .join(' ');
      out.push(`| ${f.name} | ${f.type ?? ''} | ${mods} | ${f.default ?? ''} | ${f.description ?? ''} |`);
    }
  }
  if (c.methods?.length) {
    out.push('', '### Methods', '');
    for (const m of c.methods) out.push(`- \`${m.signature ?? m.name}\`${m.description ? ` — ${m.description.split('\n')[0]}` : ''}`);
  }
  return out.join('\n') + '\n';
}

function outlineMarkdown(r: { file: string; language: string; symbols: (OutlineSymbol | CompactOutlineNode)[] }): string {
  const out = [`## ${r.file} (${r.language})`, ''];
  const walk = (list: (OutlineSymbol | CompactOutlineNode)[], depth: number) => {
    for (const s of list) {
      const line = 'lines' in s ? `lines ${s.lines[0]}-${s.lines[1]}` : `line ${s.location?.start_line ?? '?'}`;
      out.push(`${'  '.repeat(depth)}- ${s.kind} **${s.name}** — ${line}${s.signature ? `: \`${s.signature}\`` : ''}`);
      walk(s.children ?? [], depth + 1);
    }
  };
  walk(r.symbols, 0);
  if (!r.symbols.length) out.push('(no symbols)');
  return out.join('\n') + '\n';
}

const ExportedSymbolSchema = SymbolDescriptorSchema.extend({ symbol_id: z.string() });

export const descriptorOperations: Operation[] = [
  defineOperation({
    name: 'find_type_definition',
    title: 'Type definition',
    description:
      'A class, interface, struct, trait, enum or type alias as a ClassDescriptor: fields, methods with ' +
      'parameters and returns, relations (extends, implements, embeds, Eloquent), docs and location. Name ' +
      'it by `type_name` (narrow with package / namespace / kind) or `symbol_id`.',
    related: { get_function_details: 'for one function or method' },
    input: z.object({
      type_name: z
        .string()
        .min(1)
        .max(500)
        .optional()
        .describe('Type name or qualified name (`User`, `Geometry.Factory`, `App\\Models\\User`); or give symbol_id'),
      symbol_id: z.string().min(1).max(1000).optional().describe('Stable symbol id (`path::Qualified.name#kind`) instead of type_name'),
      ...scope,
      strict: strictField(),
      kind: z.string().max(50).optional().describe('class | interface | struct | trait | enum | type'),
    }),
    output: withMeta({ ...ClassDescriptorSchema.shape, symbol_id: z.string() }),
    annotations: READ_ONLY,
    repl: { command: 'type', positional: ['type_name'] },
    cacheable: true,
    callerErrors: ['SYMBOL_NOT_FOUND'],
    waitsForServers: true,
    handler: (input, ctx) => ServiceCall.run(ctx, (call) => typeDefinition(call, input)),
    markdown: (r) => classMarkdown(r),
  }),
  defineOperation({
    name: 'get_function_details',
    title: 'Function details',
    description:
      'A function, method or constructor as a FunctionDescriptor: signature, docs, parameters (type, ' +
      'default, optional, variadic), returns, visibility, static/abstract, owning type, overloads ' +
      '(`metadata.overloads`); its code with `include_code`. `class_name` or a qualified name ' +
      '(`User.describe`) picks a method.',
    related: { find_type_definition: 'for a whole type' },
    input: z.object({
      function_name: z.string().min(1).max(500).optional().describe('Function or method name, or qualified name (`User.login`); or give symbol_id'),
      symbol_id: z.string().min(1).max(1000).optional().describe('Stable symbol id (`path::Qualified.name#kind`) instead of function_name'),
      ...scope,
      strict: strictField(),
      class_name: z.string().max(500).optional().describe('Owning class / struct / trait, for methods'),
      include_code: z.boolean().optional().describe('Include the source of the function (default false)'),
    }),
    output: withMeta({ ...FunctionDescriptorSchema.shape, symbol_id: z.string() }),
    annotations: READ_ONLY,
    repl: { command: 'fn', positional: ['function_name'] },
    cacheable: true,
    callerErrors: ['SYMBOL_NOT_FOUND', 'AMBIGUOUS_SYMBOL'],
    waitsForServers: true,
    handler: (input, ctx) => ServiceCall.run(ctx, (call) => functionDetails(call, input)),
    markdown: (r) => functionMarkdown(r).join('\n') + '\n',
  }),
  defineOperation({
    name: 'list_package_exports',
    title: 'Package exports',
    description:
      'The public surface of a package as SymbolDescriptors: a TypeScript module file or directory with an ' +
      'index (re-exports followed), a Go package (import path or directory), a Python module (dotted) or a ' +
      "PHP namespace. `symbol_type` filters by kind. A module's API without reading it.",
    input: z.object({
      ...scope,
      symbol_type: z.string().max(50).optional().describe('Only this kind: class, interface, function, type, enum, constant, variable, namespace'),
      max_results: z.number().int().min(1).max(2000).optional().describe('Maximum symbols (default 200)'),
    }),
    output: withMeta({ package: z.string(), files: z.array(z.string()), symbols: z.array(ExportedSymbolSchema) }),
    annotations: READ_ONLY,
    repl: { command: 'exports', positional: ['package'] },
    callerErrors: ['SYMBOL_NOT_FOUND'],
    handler: (input, ctx) => ServiceCall.run(ctx, (call) => packageExports(call, input)),
    markdown(r) {
      const out = [`## Exports of ${r.package}`, '', `files: ${r.files.join(', ')}`, ''];
      const byKind = new Map<string, typeof r.symbols>();
      for (const s of r.symbols) byKind.set(s.kind, [...(byKind.get(s.kind) ?? []), s]);
      for (const [kind, list] of byKind) {
        out.push(`### ${kind}`, '');
        for (const s of list) out.push(`- **${s.name}** — \`${s.signature ?? s.name}\` (${loc(s.location)})`);
        out.push('');
      }
      if (!r.symbols.length) out.push('(no exported symbols)');
      return out.join('\n').trimEnd() + '\n';
    },
  }),
  defineOperation({
    name: 'get_file_outline',
    title: 'File outline',
    description: 'The symbols of one file as a tree, from the catalog. Cheaper than reading the file.',
    related: { get_symbol: 'to read one symbol', find_type_definition: "for a type's whole structure" },
    input: z.object({
      file: z.string().min(1).max(4096).describe('File path relative to the workspace root'),
      detail: OutlineDetailSchema.optional().describe(
        'names: kind, name, line range, nesting; signatures (default): and the signature; full: every node a ' +
          'SymbolDescriptor with its symbol_id and first sentence of its doc',
      ),
      depth: z.number().int().min(1).max(10).optional().describe('Levels of nesting kept (1: top-level symbols only; default all)'),
    }),
    output: withMeta({
      file: z.string(),
      language: z.string(),
      package: z.string().optional(),
      namespace: z.string().optional(),
      symbols: z.array(z.union([OutlineSymbolSchema, CompactOutlineNodeSchema])),
    }),
    annotations: READ_ONLY,
    repl: { command: 'outline', positional: ['file'] },
    profile: 'core',
    cacheable: true,
    callerErrors: ['FILE_NOT_FOUND', 'PATH_OUTSIDE_WORKSPACE', 'SECRET_FILE', 'UNSUPPORTED_LANGUAGE'],
    handler: (input, ctx) =>
      ServiceCall.run(ctx, async (call) => {
        const detail = input.detail ?? 'signatures';
        const o = detail === 'full' ? await fileOutline(call, input.file) : await catalogOutline(call, input.file);
        return { ...o, symbols: shapeOutline(o.symbols, detail, input.depth) };
      }),
    markdown: outlineMarkdown,
  }),
];
