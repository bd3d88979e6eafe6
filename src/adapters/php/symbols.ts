/** intelephense's symbols as lspgate's catalog kinds them (the PHP adapter's rules). */
import type { SymbolKind } from '../../schema/descriptors.js';
import type { SyntaxSymbol } from '../language-profile.js';

export const K = {
  module: 2,
  namespace: 3,
  class: 5,
  method: 6,
  property: 7,
  constructor: 9,
  enum: 10,
  interface: 11,
  function: 12,
  variable: 13,
  constant: 14,
  enumMember: 22,
} as const;

/** The PHP adapter's kind of intelephense's: a Module is a trait, `__construct` a constructor. */
function kindOf(lspKind: number): SymbolKind {
  switch (lspKind) {
    case K.module:
      return 'trait';
    case K.namespace:
      return 'namespace';
    case K.class:
      return 'class';
    case K.method:
      return 'method';
    case K.property:
      return 'property';
    case K.constructor:
      return 'constructor';
    case K.enum:
      return 'enum';
    case K.interface:
      return 'interface';
    case K.function:
      return 'function';
    case K.constant:
      return 'constant';
    case K.enumMember:
      return 'enum_member';
    default:
      return 'variable';
  }
}

export function phpSymbol(
  name: string,
  lspKind: number,
  start: number,
  end: number,
  selection: number,
  children: SyntaxSymbol[] = [],
  signature?: string,
): SyntaxSymbol {
  return { name, lspKind, kind: kindOf(lspKind), start, end, selection, children, ...(signature !== undefined ? { signature } : {}) };
}
