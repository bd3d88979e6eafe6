/**
 * Import statements of one file, found on its syntax tree (tree-sitter, syntax.ts): TS/JS
 * `import … from`, `export … from`, `import x = require()`, `require()`, `import()`; Go import
 * specs; Python `import a.b [as c]` and `from [.]a import b` (relative too); PHP `use` (grouped and
 * aliased) and `require`/`include` (with and without `_once`). Only where each one points is left to
 * the language server (import-resolve.ts): this file never guesses a target.
 */
import type { Grammar, SyntaxNode } from '../../syntax/syntax.js';
import { grammarFor, withSyntaxTree } from '../../syntax/syntax.js';

export type ImportKind = 'import' | 'export' | 'require' | 'dynamic' | 'use' | 'include';

export interface ScannedImport {
  kind: ImportKind;
  /** As written: `./math`, `@lib/format`, `example.com/x/y`, `.mathx`, `App\Math\Calc`, `__DIR__ . '/a.php'`. */
  specifier: string;
  /** 1-based line of the specifier. */
  line: number;
  /** 1-based first and last line of the whole statement (a multi-line import binds names above its specifier). */
  start_line: number;
  end_line: number;
  /**
   * 1-based positions (line, UTF-16 column) to ask the server's definition at, best first: the
   * specifier itself, then the imported names (pyright and intelephense resolve names, not strings).
   */
  ask: { line: number; column: number }[];
  /** Names the statement binds or re-exports (`*` for namespace/star forms), when it names any. */
  names: string[];
  /** PHP include of `__DIR__ . '/x.php'` or a plain literal: the path as written, for include resolution. */
  path?: string;
  /**
   * Python `from pkg import name`: the name, asked on its own, because a name can be a submodule
   * (`from email import errors` loads email/errors.py). Kept only where it resolves to that module.
   */
  member?: string;
}

const TS_QUERY = `
(import_statement source: (string (string_fragment) @spec)) @import
(export_statement source: (string (string_fragment) @spec)) @export
(import_require_clause source: (string (string_fragment) @spec)) @require
(call_expression function: (import) arguments: (arguments . (string (string_fragment) @spec))) @dynamic
(call_expression function: (identifier) @fn arguments: (arguments . (string (string_fragment) @spec)) (#eq? @fn "require")) @require
`;
const GO_QUERY = `
(import_spec path: (interpreted_string_literal (interpreted_string_literal_content) @spec)) @import
(import_spec path: (raw_string_literal (raw_string_literal_content) @spec)) @import
`;
const PY_QUERY = `
(import_statement name: (dotted_name) @spec) @import
(import_statement name: (aliased_import name: (dotted_name) @spec)) @import
(import_from_statement module_name: (_) @spec) @from
`;
const PHP_QUERY = `
(namespace_use_declaration) @use
(include_expression) @include
(include_once_expression) @include
(require_expression) @include
(require_once_expression) @include
`;

function queryFor(g: Grammar): string {
  if (g === 'go') return GO_QUERY;
  if (g === 'python') return PY_QUERY;
  if (g === 'php') return PHP_QUERY;
  return TS_QUERY;
}

/** 1-based line and UTF-16 column of a node's start (tree-sitter indexes are UTF-16 units of the JS string). */
function startOf(node: SyntaxNode, starts: number[]): { line: number; column: number } {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= node.startIndex) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: node.startIndex - starts[lo]! + 1 };
}

function lineStartsOf(text: string): number[] {
  const out = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) out.push(i + 1);
  return out;
}

/** Every import statement of a file; undefined when lspgate has no grammar for its extension. */
export async function scanImports(relPath: string, text: string): Promise<ScannedImport[] | undefined> {
  const g = grammarFor(relPath);
  if (!g) return undefined;
  const starts = lineStartsOf(text);
  return withSyntaxTree(
    g,
    text,
    (root, query) => {
      const out: ScannedImport[] = [];
      for (const m of query!.matches(root)) {
        const stmt = m.captures.find((c) => c.name !== 'spec' && c.name !== 'fn');
        const spec = m.captures.find((c) => c.name === 'spec')?.node;
        if (!stmt) continue;
        const kind = stmt.name as ImportKind | 'from';
        const span = { start_line: stmt.node.startPosition.row + 1, end_line: stmt.node.endPosition.row + 1 };
        let found: Omit<ScannedImport, 'start_line' | 'end_line'>[] = [];
        if (g === 'php') found = phpImports(stmt.node, kind as ImportKind, starts);
        else if (g === 'python' && spec) found = pythonImport(stmt.node, spec, kind, starts);
        else if (spec) found = [jsOrGoImport(stmt.node, spec, kind as ImportKind, starts, g)];
        for (const f of found) out.push({ ...f, ...span });
      }
      return out.sort((a, b) => a.line - b.line || (a.ask[0]?.column ?? 0) - (b.ask[0]?.column ?? 0));
    },
    queryFor(g),
  );
}

type Found = Omit<ScannedImport, 'start_line' | 'end_line'>;

function jsOrGoImport(stmt: SyntaxNode, spec: SyntaxNode, kind: ImportKind, starts: number[], g: Grammar): Found {
  const at = startOf(spec, starts);
  const names: string[] = [];
  if (g === 'go') {
    const alias = stmt.childForFieldName('name');
    if (alias) names.push(alias.text);
  } else {
    for (const n of stmt.descendantsOfType(['import_specifier', 'export_specifier', 'namespace_import', 'namespace_export', 'import_clause'])) {
      if (!n) continue;
      if (n.type === 'import_clause') {
        const def = n.namedChildren.find((c) => c?.type === 'identifier');
        if (def) names.push(def.text);
      } else if (n.type === 'namespace_import' || n.type === 'namespace_export') names.push('*');
      else names.push((n.childForFieldName('alias') ?? n.childForFieldName('name'))?.text ?? n.text);
    }
    if (kind === 'export' && names.length === 0) names.push('*');
  }
  return { kind, specifier: spec.text, line: at.line, ask: [at], names };
}

function pythonImport(stmt: SyntaxNode, spec: SyntaxNode, kind: ImportKind | 'from', starts: number[]): Found[] {
  // Definition on the last segment of `a.b.c` names the module c; `from .. import q` has no
  // segment, so its imported names are asked instead (each is a module or a package member).
  const ids = spec.descendantsOfType('identifier').filter((n): n is SyntaxNode => !!n);
  const ask = ids.length ? [startOf(ids[ids.length - 1]!, starts)] : [];
  const names: string[] = [];
  const members: Found[] = [];
  if (kind === 'from') {
    for (const n of stmt.childrenForFieldName('name')) {
      if (!n) continue;
      const name = n.type === 'aliased_import' ? n.childForFieldName('name') : n;
      if (!name) continue;
      names.push(name.text);
      const at = startOf(name, starts);
      if (!ids.length) ask.push(at);
      if (/^[\w]+$/.test(name.text)) {
        const specifier = spec.text.endsWith('.') ? `${spec.text}${name.text}` : `${spec.text}.${name.text}`;
        members.push({ kind: 'import', specifier, line: at.line, ask: [at], names: [name.text], member: name.text });
      }
    }
    if (stmt.descendantsOfType('wildcard_import').length) names.push('*');
  } else {
    const alias = spec.parent?.type === 'aliased_import' ? spec.parent.childForFieldName('alias') : null;
    names.push(alias ? alias.text : spec.text);
  }
  return [{ kind: 'import', specifier: spec.text, line: startOf(spec, starts).line, ask, names }, ...members];
}

function phpImports(stmt: SyntaxNode, kind: ImportKind, starts: number[]): Found[] {
  if (kind === 'include') {
    const arg = stmt.namedChildren.find((c) => !!c) ?? stmt;
    const at = startOf(arg, starts);
    const lit = includePath(arg);
    return [{ kind, specifier: arg.text, line: at.line, ask: [], names: [], ...(lit ? { path: lit } : {}) }];
  }
  // `use A\B\{C, D as E};` → A\B\C and A\B\D; `use A\B;` → A\B.
  const prefixNode = stmt.namedChildren.find((c) => c?.type === 'namespace_name');
  const prefix = prefixNode ? `${prefixNode.text}\\` : '';
  const out: Found[] = [];
  for (const clause of stmt.descendantsOfType('namespace_use_clause')) {
    if (!clause) continue;
    const target = clause.namedChildren.find((c) => c?.type === 'qualified_name' || c?.type === 'name');
    if (!target) continue;
    const last = target.type === 'name' ? target : (target.namedChildren.filter((c) => c?.type === 'name').pop() ?? target);
    const alias = clause.childForFieldName('alias');
    const at = startOf(last, starts);
    out.push({ kind: 'use', specifier: `${prefix}${target.text}`.replace(/^\\/, ''), line: at.line, ask: [at], names: [alias ? alias.text : last.text] });
  }
  return out;
}

/** `'x.php'`, `__DIR__ . '/x.php'` and `dirname(__FILE__) . '/x.php'`: the literal part, else undefined. */
function includePath(arg: SyntaxNode): string | undefined {
  const strings = arg.descendantsOfType(['string', 'encapsed_string']).filter((n): n is SyntaxNode => !!n);
  if (strings.length !== 1) return undefined;
  const lit = strings[0]!.text.slice(1, -1);
  if (arg.type === 'string' || arg.type === 'encapsed_string') return lit;
  const left = arg.childForFieldName('left');
  const dirOfFile = left && (left.text === '__DIR__' || left.text === 'dirname(__FILE__)');
  return arg.type === 'binary_expression' && dirOfFile ? `__DIR__${lit}` : undefined;
}
