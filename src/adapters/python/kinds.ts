/**
 * The Python adapter's kind of a pyright symbol: a function in a class is a method, `__init__` the
 * constructor, one decorated `@property` (or a getter/setter/deleter of one, `cached_property`) a
 * property; a variable in a class is a field, a module-level Constant or upper-case name a
 * constant. One function for the server catalog and the syntax catalog alike.
 */
import { fromLspSymbolKind } from '../../schema/convert/lsp-kind.js';
import { LspSymbolKind as Lsp } from '../../schema/convert/lsp-symbol-kind.js';
import type { SymbolKind } from '../../schema/descriptors.js';

const FUNCTION_KINDS: number[] = [Lsp.Method, Lsp.Function, Lsp.Constructor];
const PROPERTY_DECORATOR = /^(property|functools\.cached_property|cached_property|\w+\.(setter|getter|deleter))$/;

export interface PythonPlace {
  /** Directly in a class (its parent symbol is a class). */
  inClass: boolean;
  /** At the top level of its module. */
  topLevel: boolean;
  /** The decorators above its `def` (asked only for functions in a class). */
  decorators: () => string[];
}

export function pythonKind(lspKind: number, name: string, at: PythonPlace): SymbolKind {
  if (FUNCTION_KINDS.includes(lspKind)) {
    if (!at.inClass) return 'function';
    if (name === '__init__') return 'constructor';
    return at.decorators().some((d) => PROPERTY_DECORATOR.test(d)) ? 'property' : 'method';
  }
  if (lspKind === Lsp.Variable || lspKind === Lsp.Constant || lspKind === Lsp.Field) {
    if (at.inClass) return 'field';
    if (at.topLevel && (lspKind === Lsp.Constant || /^[A-Z][A-Z0-9_]*$/.test(name))) return 'constant';
    return 'variable';
  }
  return fromLspSymbolKind(lspKind);
}
