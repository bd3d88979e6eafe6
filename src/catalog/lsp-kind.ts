/**
 * LSP SymbolKind → descriptor SymbolKind, used when no language adapter is available. Exhaustive
 * over the 26 kinds of LSP 3.17 §3.16.1 (documentSymbol).
 */
import { SymbolKind as Lsp } from 'vscode-languageserver-protocol';
import type { SymbolKind } from '../schema/descriptors.js';

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

/** Descriptor language of an LSP languageId when no adapter says otherwise. */
export function languageOf(languageId: string): string {
  switch (languageId) {
    case 'typescriptreact':
      return 'typescript';
    case 'javascriptreact':
      return 'javascript';
    default:
      return languageId;
  }
}
