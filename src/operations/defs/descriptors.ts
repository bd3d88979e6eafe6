/**
 * Descriptor operations (schema/descriptors.ts): find_type_definition → ClassDescriptor, get_function_details →
 * FunctionDescriptor, list_package_exports → SymbolDescriptor[], get_file_outline → OutlineSymbol tree.
 */
import { z } from 'zod';

import { OutlineDetailSchema } from '../../schema/outline.js';
import { ServiceCall } from '../../service/call.js';
import { shapeOutline } from '../../service/descriptors/outline-detail.js';
import { strictField } from '../../service/navigation/resolve.js';
import { READ_ONLY } from '../annotations.js';
import { FindTypeDefinitionOutput, GetFileOutlineOutput, GetFunctionDetailsOutput, ListPackageExportsOutput } from '../contracts/descriptors.js';
import { classMarkdown, functionMarkdown, listPackageExportsMarkdown, outlineMarkdown } from '../render/descriptors.js';
import { defineOperation, type Operation } from '../types.js';

const scope = {
  package: z.string().max(500).optional().describe('Package / module path (TS: `src/util/strings`; Go import path; Python dotted module)'),
  namespace: z.string().max(500).optional().describe('Namespace (PHP `App\\Models`, TS namespace `Geometry.Factory`)'),
  language: z.string().max(50).optional().describe('typescript, javascript, go, python, php'),
};

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
    output: FindTypeDefinitionOutput,
    annotations: READ_ONLY,
    repl: { command: 'type', positional: ['type_name'] },
    cacheable: true,
    callerErrors: ['SYMBOL_NOT_FOUND'],
    waitsForServers: true,
    handler: (input, ctx) => ServiceCall.run(ctx, async (call) => (await import('../../service/descriptors/descriptors.js')).typeDefinition(call, input)),
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
    output: GetFunctionDetailsOutput,
    annotations: READ_ONLY,
    repl: { command: 'fn', positional: ['function_name'] },
    cacheable: true,
    callerErrors: ['SYMBOL_NOT_FOUND', 'AMBIGUOUS_SYMBOL'],
    waitsForServers: true,
    handler: (input, ctx) => ServiceCall.run(ctx, async (call) => (await import('../../service/descriptors/descriptors.js')).functionDetails(call, input)),
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
    output: ListPackageExportsOutput,
    annotations: READ_ONLY,
    repl: { command: 'exports', positional: ['package'] },
    callerErrors: ['SYMBOL_NOT_FOUND'],
    handler: (input, ctx) => ServiceCall.run(ctx, async (call) => (await import('../../service/descriptors/exports.js')).packageExports(call, input)),
    markdown: listPackageExportsMarkdown,
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
    output: GetFileOutlineOutput,
    annotations: READ_ONLY,
    repl: { command: 'outline', positional: ['file'] },
    profile: 'core',
    cacheable: true,
    callerErrors: ['FILE_NOT_FOUND', 'PATH_OUTSIDE_WORKSPACE', 'SECRET_FILE', 'UNSUPPORTED_LANGUAGE'],
    handler: (input, ctx) =>
      ServiceCall.run(ctx, async (call) => {
        const detail = input.detail ?? 'signatures';
        const o =
          detail === 'full'
            ? await (await import('../../service/descriptors/descriptors.js')).fileOutline(call, input.file)
            : await (await import('../../service/descriptors/catalog-outline.js')).catalogOutline(call, input.file);
        return { ...o, symbols: shapeOutline(o.symbols, detail, input.depth) };
      }),
    markdown: outlineMarkdown,
  }),
];
