/**
 * The import-statement finder behind the catalog's TypeScript filter (src/adapters/servers/typescript/imports.ts):
 * which spans of source are import declarations / export clauses; and the kinds evened out
 * between tsserver and tsgo (src/adapters/typescript/kinds.ts).
 * The end-to-end check against the real servers is test/languages/tsgo-parity.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { type DocumentSymbol, SymbolKind } from 'vscode-languageserver-protocol';

import { importStatementSpans, withoutImportBindings } from '../../src/adapters/servers/typescript/imports.js';
import { isConstBinding, tsKindAsTsserver } from '../../src/adapters/typescript/kinds.js';

const spansOf = (text: string) => importStatementSpans(text).map(([s, e]) => text.slice(s, e));

/** A documentSymbol for the first occurrence of `name` after `after` in `text`. */
function sym(text: string, name: string, after = '', kind: SymbolKind = SymbolKind.Variable, children?: DocumentSymbol[]): DocumentSymbol {
  const idx = text.indexOf(name, after ? text.indexOf(after) : 0);
  if (idx < 0) throw new Error(`${name} not found`);
  const lines = text.slice(0, idx).split('\n');
  const pos = { line: lines.length - 1, character: lines[lines.length - 1]!.length };
  const range = { start: pos, end: { line: pos.line, character: pos.character + name.length } };
  return { name, kind, range, selectionRange: range, ...(children ? { children } : {}) };
}

describe('importStatementSpans', () => {
  it('finds every import and export-clause form', () => {
    const text = [
      "import Thing, { formatName, VOWELS as V } from './lib.js';",
      "import * as lib from './lib.js'",
      "import type { NS } from './lib.js';",
      "import fs = require('node:fs');",
      'import {',
      '  formatName as fn2,',
      "} from './lib.js';",
      "import './side-effect.js';",
      "import data from './data.json' with { type: 'json' };",
      "export { formatName as reexported, VOWELS } from './lib.js';",
      "export * as everything from './lib.js';",
      "export * from './lib.js';",
      'import alias = NS.inner;',
      'export { local as localAlias };',
      'export type { T };',
    ].join('\n');
    expect(spansOf(text)).toEqual([
      "import Thing, { formatName, VOWELS as V } from './lib.js'",
      "import * as lib from './lib.js'",
      "import type { NS } from './lib.js'",
      "import fs = require('node:fs')",
      "import {\n  formatName as fn2,\n} from './lib.js'",
      "import './side-effect.js'",
      "import data from './data.json' with { type: 'json' }",
      "export { formatName as reexported, VOWELS } from './lib.js'",
      "export * as everything from './lib.js'",
      "export * from './lib.js'",
      'import alias = NS.inner',
      'export { local as localAlias }',
      'export type { T }',
    ]);
  });

  it('leaves out what only looks like an import', () => {
    const text = [
      "const dyn = import('./lib.js');",
      'const url = import.meta.url;',
      'const o = { import: 1, export: 2 };',
      'o.import; o.export;',
      "// import { commented } from 'x';",
      "/* export { alsoCommented } from 'x'; */",
      'const s = "import { inString } from \'x\'";',
      "const t = `import { inTemplate } from '${dyn}' ${`import { nested } from 'y'`}`;",
      "const re = /import { inRegex } from 'x'/;",
      'export default o;',
      'export const value = 1;',
      'export = o;',
      'class C { import() { return 1; } }',
      "type M = typeof import('./lib.js');",
    ].join('\n');
    expect(spansOf(text)).toEqual([]);
  });

  it('keeps tokenizing correctly after strings, templates and regexes holding quotes and braces', () => {
    const text = [
      "const a = '}\\'{'; const b = \"`\";",
      "const c = `${'{'}}` + `${ { x: `}` }.x }`;",
      "const d = 1 / 2 / 3; const e = /['`{]/g.test('x');",
      "const jsx = <p>it's {d}</p>;",
      "import { late } from './late.js';",
    ].join('\n');
    expect(spansOf(text)).toEqual(["import { late } from './late.js'"]);
  });
});

describe('withoutImportBindings', () => {
  const text = [
    "import { formatName } from './strings.js';",
    "import Default, * as all from './all.js';",
    "export { formatName as toDisplayName } from './strings.js';",
    'export namespace Outer {',
    '  import inner = Other.thing;',
    '  export const kept = inner;',
    '}',
    'export function formatLocal() { return formatName; }',
  ].join('\n');

  it('drops the symbols named inside import statements, nested ones too, and keeps declarations', () => {
    const symbols = [
      sym(text, 'formatName'),
      sym(text, 'Default'),
      sym(text, 'all'),
      sym(text, 'toDisplayName'),
      sym(text, 'Outer', '', SymbolKind.Namespace, [sym(text, 'inner'), sym(text, 'kept', 'export const')]),
      sym(text, 'formatLocal', '', SymbolKind.Function),
    ];
    const names = (nodes: DocumentSymbol[]): unknown[] => nodes.map((n) => (n.children ? [n.name, names(n.children)] : n.name));
    expect(names(withoutImportBindings(symbols, text, 'utf-16'))).toEqual([['Outer', ['kept']], 'formatLocal']);
    expect(names(withoutImportBindings(symbols, text, 'utf-8'))).toEqual([['Outer', ['kept']], 'formatLocal']);
  });

  it('returns the same tree when nothing is an import binding (typescript-language-server)', () => {
    const symbols = [sym(text, 'Outer', '', SymbolKind.Namespace, [sym(text, 'kept', 'export const')]), sym(text, 'formatLocal', '', SymbolKind.Function)];
    expect(withoutImportBindings(symbols, text, 'utf-16')).toBe(symbols);
  });
});

describe('isConstBinding', () => {
  const text = [
    'export const A = 1;',
    'const i = 1, j = 2;',
    'const { b1, b2: renamed } = o;',
    'declare const h: number;',
    'for (const x of xs) {}',
    'let d = 1;',
    'var e = 2;',
    'const z = 1; let y = 2;',
    'let k = obj.const, m = 3;',
  ].join('\n');
  const lines = text.split('\n');
  it.each([
    ['A', '', true],
    ['j', 'const i', true],
    ['renamed', '', true],
    ['h', 'declare', true],
    ['x', 'for', true],
    ['d', 'let d', false],
    ['e', 'var e', false],
    ['y', 'let y', false],
    ['m', 'm = 3', false],
  ] as const)('%s → %s', (name, after, expected) => {
    expect(isConstBinding(lines, sym(text, name, after))).toBe(expected);
  });

  it('only for Variable symbols (tsserver already says Constant; a function is a function)', () => {
    expect(isConstBinding(lines, sym(text, 'A', '', SymbolKind.Constant))).toBe(false);
  });
});

describe('tsKindAsTsserver', () => {
  const text = ['export type EntityId = string;', 'export class Box {}', 'const limit = 1;', 'let count = 2;'].join('\n');
  const lines = text.split('\n');
  it.each([
    ['EntityId', SymbolKind.Class, 'class', 'type'], // tsgo's Class for a type alias
    ['Box', SymbolKind.Class, 'class', 'class'],
    ['limit', SymbolKind.Variable, 'variable', 'constant'], // tsgo's Variable for a const
    ['limit', SymbolKind.Constant, 'constant', 'constant'], // tsserver's answer is left alone
    ['count', SymbolKind.Variable, 'variable', 'variable'],
  ] as const)('%s (LSP kind %i, adapter %s) → %s', (name, lspKind, kind, expected) => {
    expect(tsKindAsTsserver(kind, lines, sym(text, name, '', lspKind))).toBe(expected);
  });
});
