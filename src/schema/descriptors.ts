/**
 * The descriptor schema, field for field: its JSON names are the public contract clients read. An
 * empty field is left out (`.optional()`): converters leave a field out rather than emit "" or [].
 * FieldDescriptor, ParamDescriptor, ReturnDescriptor and RelationDescriptor are named but not
 * spelled out by that contract; their shapes here are lspgate's and documented in docs/operations-guide.md.
 */
import { z } from 'zod';

export const SymbolLocationSchema = z.object({
  file_path: z.string().optional().describe('Path relative to the workspace root, with /'),
  uri: z.string().optional().describe('file:// URI of the file'),
  start_line: z.number().int().optional().describe('First line, 1-based'),
  end_line: z.number().int().optional().describe('Last line, 1-based'),
});
export type SymbolLocation = z.infer<typeof SymbolLocationSchema>;

export const ParamDescriptorSchema = z.object({
  name: z.string(),
  type: z.string().optional(),
  default: z.string().optional().describe('Default value as written in source'),
  optional: z.boolean().optional(),
  variadic: z.boolean().optional(),
  description: z.string().optional(),
});
export type ParamDescriptor = z.infer<typeof ParamDescriptorSchema>;

export const ReturnDescriptorSchema = z.object({
  type: z.string(),
  name: z.string().optional().describe('Named result (Go)'),
  description: z.string().optional(),
});
export type ReturnDescriptor = z.infer<typeof ReturnDescriptorSchema>;

export const FunctionKindSchema = z.enum(['function', 'method', 'scope', 'accessor', 'mutator', 'constructor']);

export const FunctionDescriptorSchema = z.object({
  language: z.string(),
  kind: FunctionKindSchema,
  name: z.string(),
  namespace: z.string().optional(),
  receiver: z.string().optional().describe('Go receiver type, or the owning class for methods'),
  signature: z.string().optional(),
  description: z.string().optional(),
  location: SymbolLocationSchema.optional(),
  parameters: z.array(ParamDescriptorSchema).optional(),
  returns: z.array(ReturnDescriptorSchema).optional(),
  visibility: z.string().optional().describe('public | protected | private | internal'),
  is_static: z.boolean().optional(),
  is_abstract: z.boolean().optional(),
  is_final: z.boolean().optional(),
  code: z.string().optional(),
  tags: z.array(z.string()).optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});
export type FunctionDescriptor = z.infer<typeof FunctionDescriptorSchema>;

export const FieldDescriptorSchema = z.object({
  name: z.string(),
  type: z.string().optional(),
  description: z.string().optional(),
  visibility: z.string().optional(),
  is_static: z.boolean().optional(),
  is_readonly: z.boolean().optional(),
  optional: z.boolean().optional(),
  default: z.string().optional(),
  tag: z.string().optional().describe('Go struct tag'),
  embedded: z.boolean().optional().describe('Go embedded field'),
  location: SymbolLocationSchema.optional(),
  tags: z.array(z.string()).optional(),
});
export type FieldDescriptor = z.infer<typeof FieldDescriptorSchema>;

export const RelationDescriptorSchema = z.object({
  type: z
    .string()
    .describe(
      'extends | implements | embeds | uses (trait) | hasOne | hasMany | belongsTo | belongsToMany | morphTo | morphOne | morphMany | morphToMany | morphedByMany | hasOneThrough | hasManyThrough',
    ),
  target: z.string().describe('Related type as written (short name)'),
  target_full_name: z.string().optional(),
  method: z.string().optional().describe('Method defining the relation (Eloquent)'),
  location: SymbolLocationSchema.optional(),
  metadata: z.record(z.string(), z.unknown()).optional().describe('Relation details, e.g. a polymorphic relation: morph_name, type_column, id_column'),
});
export type RelationDescriptor = z.infer<typeof RelationDescriptorSchema>;

export const ClassKindSchema = z.enum(['class', 'interface', 'trait', 'struct', 'type', 'model', 'enum']);

export const ClassDescriptorSchema = z.object({
  language: z.string(),
  kind: ClassKindSchema,
  name: z.string(),
  namespace: z.string().optional(),
  package: z.string().optional(),
  full_name: z.string().optional(),
  signature: z.string().optional(),
  description: z.string().optional(),
  location: SymbolLocationSchema.optional(),
  fields: z.array(FieldDescriptorSchema).optional(),
  methods: z.array(FunctionDescriptorSchema).optional(),
  relations: z.array(RelationDescriptorSchema).optional(),
  table: z.string().optional(),
  fillable: z.array(z.string()).optional(),
  hidden: z.array(z.string()).optional(),
  visible: z.array(z.string()).optional(),
  appends: z.array(z.string()).optional(),
  casts: z.record(z.string(), z.string()).optional(),
  scopes: z.array(z.string()).optional(),
  attributes: z.array(z.string()).optional(),
  tags: z.array(z.string()).optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});
export type ClassDescriptor = z.infer<typeof ClassDescriptorSchema>;

export const SymbolKindSchema = z.enum([
  'class',
  'interface',
  'trait',
  'struct',
  'type',
  'enum',
  'enum_member',
  'function',
  'method',
  'constructor',
  'property',
  'field',
  'variable',
  'constant',
  'namespace',
  'module',
  'package',
  'file',
]);
export type SymbolKind = z.infer<typeof SymbolKindSchema>;

export const SymbolDescriptorSchema = z.object({
  language: z.string(),
  kind: SymbolKindSchema,
  name: z.string(),
  namespace: z.string().optional(),
  package: z.string().optional(),
  signature: z.string().optional(),
  description: z.string().optional(),
  location: SymbolLocationSchema.optional(),
  tags: z.array(z.string()).optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});
export type SymbolDescriptor = z.infer<typeof SymbolDescriptorSchema>;

/**
 * An outline node: a SymbolDescriptor with its id and children, without what the outline's file
 * already says once (language, package, namespace, the file's path and URI) and with only the
 * first sentence of the description. An outline exists to cost fewer tokens than the file.
 */
export type OutlineSymbol = Omit<SymbolDescriptor, 'language' | 'package' | 'namespace'> & {
  symbol_id: string;
  children?: OutlineSymbol[];
};
export const OutlineSymbolSchema: z.ZodType<OutlineSymbol> = z.lazy(() =>
  SymbolDescriptorSchema.omit({ language: true, package: true, namespace: true }).extend({
    symbol_id: z.string(),
    children: z.array(OutlineSymbolSchema).optional(),
  }),
);
