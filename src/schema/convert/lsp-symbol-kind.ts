/**
 * LSP 3.17's SymbolKind numbers (§3.16.1): the syntax workers name kinds without loading the protocol
 * package (its import cost each worker ~0.3 s of start-up, for 26 constants). The compiler holds the
 * table to vscode-languageserver-protocol's `SymbolKind`, name for name and value for value: the
 * import below is a type, gone at run time.
 */
import type { SymbolKind } from 'vscode-languageserver-protocol';

export const LspSymbolKind = {
  File: 1,
  Module: 2,
  Namespace: 3,
  Package: 4,
  Class: 5,
  Method: 6,
  Property: 7,
  Field: 8,
  Constructor: 9,
  Enum: 10,
  Interface: 11,
  Function: 12,
  Variable: 13,
  Constant: 14,
  String: 15,
  Number: 16,
  Boolean: 17,
  Array: 18,
  Object: 19,
  Key: 20,
  Null: 21,
  EnumMember: 22,
  Struct: 23,
  Event: 24,
  Operator: 25,
  TypeParameter: 26,
} as const satisfies { readonly [K in keyof typeof SymbolKind]: (typeof SymbolKind)[K] };
