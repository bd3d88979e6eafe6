/**
 * Syntax hooks of PHP: `use` (grouped and aliased) and `require`/`include` (with and without
 * `_once`), attributes, `try`/`catch`/`throw`, Laravel route registrations (`Route::get('/x', …)`),
 * and complexity decision points (`and`/`or` included).
 */
import type { SourcePosition } from '../../syntax/positions.js';
import type { SyntaxNode } from '../../syntax/syntax.js';
import type { FoundImport, ImportKind, ImportSyntax } from '../language-profile.js';
import { compact, errorHandling, HTTP_VERBS, routeRegistration } from '../syntax-forms.js';
import type { ComplexitySyntax, PatternFinding, PatternSyntax } from '../syntax-hooks.js';

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

function readImport(stmt: SyntaxNode, kind: string, _spec: SyntaxNode | undefined, at: (n: SyntaxNode) => SourcePosition): FoundImport[] {
  if (kind === 'include') {
    const arg = stmt.namedChildren.find((c) => !!c) ?? stmt;
    const lit = includePath(arg);
    return [{ kind, specifier: arg.text, line: at(arg).line, ask: [], names: [], ...(lit ? { path: lit } : {}) }];
  }
  // `use A\B\{C, D as E};` → A\B\C and A\B\D; `use A\B;` → A\B.
  const prefixNode = stmt.namedChildren.find((c) => c?.type === 'namespace_name');
  const prefix = prefixNode ? `${prefixNode.text}\\` : '';
  const out: FoundImport[] = [];
  for (const clause of stmt.descendantsOfType('namespace_use_clause')) {
    if (!clause) continue;
    const target = clause.namedChildren.find((c) => c?.type === 'qualified_name' || c?.type === 'name');
    if (!target) continue;
    const last = target.type === 'name' ? target : (target.namedChildren.filter((c) => c?.type === 'name').pop() ?? target);
    const alias = clause.childForFieldName('alias');
    const where = at(last);
    const specifier = `${prefix}${target.text}`;
    out.push({
      kind: kind as ImportKind,
      specifier: specifier.startsWith('\\') ? specifier.slice(1) : specifier,
      line: where.line,
      ask: [where],
      names: [alias ? alias.text : last.text],
    });
  }
  return out;
}

export const PHP_IMPORTS: ImportSyntax = {
  query: `
(namespace_use_declaration) @use
(include_expression) @include
(include_once_expression) @include
(require_expression) @include
(require_once_expression) @include
`,
  read: readImport,
};

function hit(n: SyntaxNode): PatternFinding | undefined {
  switch (n.type) {
    case 'attribute': {
      const name = n.namedChildren[0]?.text ?? n.text;
      return { pattern_type: 'decorators', name: `#[${name}]`, description: `declarations with the attribute #[${name}]` };
    }
    case 'try_statement':
      return errorHandling('try/catch', 'errors handled with try/catch blocks');
    case 'catch_clause': {
      const types = compact(n.childForFieldName('type')?.text ?? '');
      return errorHandling(`catch ${types}`, `exceptions caught as \`catch (${types} $e)\``);
    }
    case 'throw_expression': {
      const v = n.namedChildren[0];
      const cls = v?.type === 'object_creation_expression' ? v.namedChildren[0]?.text : undefined;
      return cls
        ? errorHandling(`throw ${cls}`, `exceptions raised as \`throw new ${cls}(...)\``)
        : errorHandling('throw (rethrow or value)', 'throw of an existing value (rethrow)');
    }
    case 'scoped_call_expression': {
      const scope = n.childForFieldName('scope')?.text ?? '';
      const name = n.childForFieldName('name')?.text ?? '';
      return scope === 'Route' && HTTP_VERBS.has(name) ? routeRegistration(`Route::${name}`, n, false) : undefined;
    }
    default:
      return undefined;
  }
}

export const PHP_PATTERNS: PatternSyntax = {
  query: '[(attribute) (try_statement) (catch_clause) (throw_expression) (scoped_call_expression)] @node',
  hit,
  models: { name: 'Eloquent models', description: 'Laravel Eloquent models (classes whose extends chain reaches Illuminate\\Database\\Eloquent\\Model)' },
};

export const PHP_COMPLEXITY: ComplexitySyntax = {
  query: `
[(if_statement) (else_if_clause) (for_statement) (foreach_statement) (while_statement) (do_statement) (case_statement) (catch_clause) (conditional_expression) (match_conditional_expression)] @decision
(binary_expression operator: ["&&" "||" "??" "and" "or"]) @decision
(comment) @comment
`,
};
