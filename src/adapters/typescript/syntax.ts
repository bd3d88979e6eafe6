/**
 * Syntax hooks of TypeScript and JavaScript: import statements (`import … from`, `export … from`,
 * `import x = require()`, `require()`, `import()`), decorators, error handling, HTTP route
 * registrations and complexity decision points. The JavaScript grammar has no `import x = require()`
 * (`import_require_clause` is TypeScript's): JavaScript files get a query of their own.
 */
import type { SourcePosition } from '../../syntax/positions.js';
import type { SyntaxNode } from '../../syntax/syntax.js';
import type { FoundImport, ImportKind, ImportSyntax } from '../language-profile.js';
import { calleeText, errorHandling, HTTP_VERBS, routeRegistration } from '../syntax-forms.js';
import type { ComplexitySyntax, PatternFinding, PatternSyntax } from '../syntax-hooks.js';

const COMMON_IMPORTS = `
(import_statement source: (string (string_fragment) @spec)) @import
(export_statement source: (string (string_fragment) @spec)) @export
(call_expression function: (import) arguments: (arguments . (string (string_fragment) @spec))) @dynamic
(call_expression function: (identifier) @_fn arguments: (arguments . (string (string_fragment) @spec)) (#eq? @_fn "require")) @require
`;

/** The names a statement binds or re-exports (`*` for namespace forms and bare `export * from`). */
function boundNames(stmt: SyntaxNode, kind: string): string[] {
  const names: string[] = [];
  for (const n of stmt.descendantsOfType(['import_specifier', 'export_specifier', 'namespace_import', 'namespace_export', 'import_clause'])) {
    if (!n) continue;
    if (n.type === 'import_clause') {
      const def = n.namedChildren.find((c) => c?.type === 'identifier');
      if (def) names.push(def.text);
    } else if (n.type === 'namespace_import' || n.type === 'namespace_export') names.push('*');
    else names.push((n.childForFieldName('alias') ?? n.childForFieldName('name'))?.text ?? n.text);
  }
  if (kind === 'export' && names.length === 0) names.push('*');
  return names;
}

/** What an `export … from` passes on: its specifiers (name and the name importers see), or a star form. */
function reexportsOf(stmt: SyntaxNode): NonNullable<FoundImport['reexports']> {
  if (stmt.descendantsOfType('namespace_export').length) return 'namespace';
  const specs = stmt.descendantsOfType('export_specifier').filter((n): n is SyntaxNode => !!n);
  if (!specs.length) return 'all';
  return specs.flatMap((n) => {
    const name = n.childForFieldName('name')?.text;
    return name ? [{ name, as: n.childForFieldName('alias')?.text ?? name }] : [];
  });
}

function readImport(stmt: SyntaxNode, kind: string, spec: SyntaxNode | undefined, at: (n: SyntaxNode) => SourcePosition): FoundImport[] {
  if (!spec) return [];
  const where = at(spec);
  return [
    {
      kind: kind as ImportKind,
      specifier: spec.text,
      line: where.line,
      ask: [where],
      names: boundNames(stmt, kind),
      ...(kind === 'export' ? { reexports: reexportsOf(stmt) } : {}),
    },
  ];
}

export const TS_IMPORTS: ImportSyntax = {
  query: `${COMMON_IMPORTS}(import_require_clause source: (string (string_fragment) @spec)) @require\n`,
  read: readImport,
};

export const JS_IMPORTS: ImportSyntax = { query: COMMON_IMPORTS, read: readImport };

function hit(n: SyntaxNode): PatternFinding | undefined {
  switch (n.type) {
    case 'decorator': {
      const expr = n.namedChildren[0];
      return expr ? { pattern_type: 'decorators', name: `@${calleeText(expr)}`, description: `declarations decorated with @${calleeText(expr)}` } : undefined;
    }
    case 'try_statement':
      return errorHandling('try/catch', 'errors handled with try/catch blocks');
    case 'catch_clause':
      return n.childForFieldName('parameter') ? undefined : errorHandling('catch without binding', 'catch clauses that drop the error (`catch {}`)');
    case 'throw_statement': {
      const ctor = n.namedChildren[0]?.type === 'new_expression' ? n.namedChildren[0].childForFieldName('constructor')?.text : undefined;
      return ctor
        ? errorHandling(`throw ${ctor}`, `errors raised as \`throw new ${ctor}(...)\``)
        : errorHandling('throw (rethrow or value)', 'throw of an existing value (rethrow, or a non-constructed error)');
    }
    case 'call_expression': {
      const fn = n.childForFieldName('function');
      if (fn?.type !== 'member_expression') return undefined;
      const prop = fn.childForFieldName('property')?.text ?? '';
      if (prop === 'catch') return errorHandling('promise .catch()', 'promise rejections handled with .catch(handler)');
      return HTTP_VERBS.has(prop) ? routeRegistration(calleeText(n), n, true) : undefined;
    }
    default:
      return undefined;
  }
}

export const JS_PATTERNS: PatternSyntax = {
  query: '[(decorator) (try_statement) (catch_clause) (throw_statement) (call_expression)] @node',
  hit,
};

export const JS_COMPLEXITY: ComplexitySyntax = {
  query: `
[(if_statement) (for_statement) (for_in_statement) (while_statement) (do_statement) (switch_case) (catch_clause) (ternary_expression)] @decision
(binary_expression operator: ["&&" "||" "??"]) @decision
(comment) @comment
`,
};
