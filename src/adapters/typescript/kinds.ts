/**
 * Symbol kinds where TypeScript 7's server (`tsc --lsp`, servers.json `tsgo`) and
 * typescript-language-server 5.3 (tsserver) disagree about the same declaration, evened out to
 * what tsserver says so that a catalog id (`path::Name#kind`) does not depend on the server:
 * - `const` bindings: tsserver Constant, tsgo Variable;
 * - `type X = …`: tsserver Variable (the TypeScript adapter makes it `type`), tsgo Class.
 * Left as they are (see test/languages/tsgo-parity.test.ts): enum members (tsserver Constant,
 * tsgo EnumMember) and getters (tsserver Method, tsgo Property).
 */
import type { DocumentSymbol } from 'vscode-languageserver-protocol';

import { fromLspSymbolKind } from '../../schema/convert/lsp-kind.js';
import { LspSymbolKind as Lsp } from '../../schema/convert/lsp-symbol-kind.js';
import type { SymbolKind } from '../../schema/descriptors.js';

function textBeforeName(lines: string[], symbol: DocumentSymbol): string {
  const { line, character } = symbol.selectionRange.start;
  return nearBefore((lines[line] ?? '').slice(0, character));
}

/**
 * A Variable declared with `const` on its own line (nearest declaration keyword before the name,
 * no `;` between): `export const`, `declare const`, `const a = 1, b = 2`, `const { a, b } = o`,
 * `for (const x of …)`. A destructuring spread over several lines is not seen.
 */
export function isConstBinding(lines: string[], symbol: DocumentSymbol): boolean {
  return symbol.kind === Lsp.Variable && constBefore(textBeforeName(lines, symbol));
}

/**
 * How far before a name its keyword is looked for. The keyword is on the name's line, close
 * before it; on a minified line, reading back to the line's start for each of thousands of names
 * made the cost names × line length.
 */
const MAX_BEFORE = 1000;

/** The end of `before` that is searched for keywords (V8 slices without copying). */
export function nearBefore(before: string): string {
  return before.length > MAX_BEFORE ? before.slice(-MAX_BEFORE) : before;
}

function constBefore(before: string): boolean {
  // The nearest keyword wins: `const a = 1; let b` is not a constant.
  const last = [...before.matchAll(/(?<![\w$.])(const|let|var)\b/g)].pop();
  return last?.[1] === 'const' && !before.slice(last.index!).includes(';');
}

/**
 * The kind the TypeScript adapter makes of a symbol of LSP kind `lspKind` whose name follows `before`
 * on its line: tsserver reports type aliases as Variable (13) symbols, and `namespace X {}` as
 * Module (2) like `module X` / `declare module`; the keyword before the name tells them apart.
 */
export function tsKindOf(lspKind: number, before: string): SymbolKind {
  if ((lspKind === Lsp.Variable || lspKind === Lsp.Constant) && /\btype\s+$/.test(before)) return 'type';
  if (lspKind === Lsp.Module) return /\bnamespace\s+$/.test(before) ? 'namespace' : 'module';
  return fromLspSymbolKind(lspKind);
}

/** The kind the TypeScript adapter gave, evened out between tsserver and tsgo (see above). */
export function tsKindAsTsserver(kind: SymbolKind, lines: string[], symbol: DocumentSymbol): SymbolKind {
  return asTsserver(kind, symbol.kind, textBeforeName(lines, symbol));
}

function asTsserver(kind: SymbolKind, lspKind: number, before: string): SymbolKind {
  if (kind === 'variable' && lspKind === Lsp.Variable && constBefore(before)) return 'constant';
  if (kind === 'class' && lspKind === Lsp.Class && /(?<![\w$.])type\s+$/.test(before)) return 'type';
  return kind;
}

/**
 * The TypeScript adapter's kind of a symbol of LSP kind `lspKind` whose name follows `before` on
 * its line (tsKindOf, then tsKindAsTsserver): what the catalog holds for it, from either server or
 * from syntax.
 */
export function tsDescriptorKind(lspKind: number, lineBefore: string): SymbolKind {
  const before = nearBefore(lineBefore);
  const kind = tsKindOf(lspKind, before);
  return kind === fromLspSymbolKind(lspKind) ? asTsserver(kind, lspKind, before) : kind;
}
