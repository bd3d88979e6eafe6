/**
 * Contracts of the descriptor operations: their result schemas and types.
 */
import { z } from 'zod';

import { ClassDescriptorSchema, FunctionDescriptorSchema, OutlineSymbolSchema, SymbolDescriptorSchema } from '../../schema/descriptors.js';
import { withMeta } from '../../schema/meta.js';
import { CompactOutlineNodeSchema } from '../../schema/outline.js';

export const ExportedSymbolSchema = SymbolDescriptorSchema.extend({ symbol_id: z.string() });

export const FindTypeDefinitionOutput = withMeta({ ...ClassDescriptorSchema.shape, symbol_id: z.string() });
export type FindTypeDefinitionResult = z.infer<typeof FindTypeDefinitionOutput>;

export const GetFunctionDetailsOutput = withMeta({ ...FunctionDescriptorSchema.shape, symbol_id: z.string() });
export type GetFunctionDetailsResult = z.infer<typeof GetFunctionDetailsOutput>;

export const ListPackageExportsOutput = withMeta({ package: z.string(), files: z.array(z.string()), symbols: z.array(ExportedSymbolSchema) });
export type ListPackageExportsResult = z.infer<typeof ListPackageExportsOutput>;

export const GetFileOutlineOutput = withMeta({
  file: z.string(),
  language: z.string(),
  package: z.string().optional(),
  namespace: z.string().optional(),
  symbols: z.array(z.union([OutlineSymbolSchema, CompactOutlineNodeSchema])),
});
export type GetFileOutlineResult = z.infer<typeof GetFileOutlineOutput>;
