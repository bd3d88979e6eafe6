/**
 * LSP SymbolKind → descriptor kinds. Exhaustive over the 26 kinds of LSP 3.17 §3.16.1; language
 * adapters refine these (Go struct vs type, TS type alias vs variable).
 */
import type { SymbolKind } from '../descriptors.js';
import { LspSymbolKind as Lsp } from './lsp-symbol-kind.js';

export function fromLspSymbolKind(kind: number): SymbolKind {
  switch (kind) {
    case Lsp.File:
      return 'file';
    case Lsp.Module:
      return 'module';
    case Lsp.Namespace:
      return 'namespace';
    case Lsp.Package:
      return 'package';
    case Lsp.Class:
      return 'class';
    case Lsp.Method:
      return 'method';
    case Lsp.Property:
    case Lsp.Key:
    case Lsp.Event:
      return 'property';
    case Lsp.Field:
      return 'field';
    case Lsp.Constructor:
      return 'constructor';
    case Lsp.Enum:
      return 'enum';
    case Lsp.Interface:
      return 'interface';
    case Lsp.Function:
    case Lsp.Operator:
      return 'function';
    case Lsp.Variable:
    case Lsp.Object:
    case Lsp.Array:
      return 'variable';
    case Lsp.Constant:
    case Lsp.String:
    case Lsp.Number:
    case Lsp.Boolean:
    case Lsp.Null:
      return 'constant';
    case Lsp.EnumMember:
      return 'enum_member';
    case Lsp.Struct:
      return 'struct';
    case Lsp.TypeParameter:
      return 'type';
    default:
      return 'variable';
  }
}

/** Kinds that find_type_definition describes with a ClassDescriptor. */
export const TYPE_KINDS: readonly SymbolKind[] = ['class', 'interface', 'trait', 'struct', 'type', 'enum', 'namespace', 'module'];
/** Kinds that get_function_details describes with a FunctionDescriptor. */
export const FUNCTION_KINDS: readonly SymbolKind[] = ['function', 'method', 'constructor'];
/** Kinds that become FieldDescriptors of a type. */
export const FIELD_KINDS: readonly SymbolKind[] = ['property', 'field', 'constant', 'variable', 'enum_member'];
