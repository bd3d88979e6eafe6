/**
 * Syntax hooks of Go: import specs (with their alias), error handling (`if err != nil`, `panic`,
 * `errors.New`, `fmt.Errorf` with and without `%w`), HTTP route registrations on a router
 * (`mux.HandleFunc("/x", h)`, `r.GET(...)`) and complexity decision points.
 */
import type { SyntaxNode } from '../../syntax/syntax.js';
import type { ImportSyntax } from '../language-profile.js';
import { calleeText, errorHandling, firstArgument, routeRegistration, stringValue } from '../syntax-forms.js';
import type { ComplexitySyntax, PatternFinding, PatternSyntax } from '../syntax-hooks.js';

export const GO_IMPORTS: ImportSyntax = {
  query: `
(import_spec path: (interpreted_string_literal (interpreted_string_literal_content) @spec)) @import
(import_spec path: (raw_string_literal (raw_string_literal_content) @spec)) @import
`,
  read(stmt, _kind, spec, at) {
    if (!spec) return [];
    const where = at(spec);
    const alias = stmt.childForFieldName('name');
    return [{ kind: 'import', specifier: spec.text, line: where.line, ask: [where], names: alias ? [alias.text] : [] }];
  },
  // `unsafe` and cgo's `C` are built into the compiler: gopls has no file to point at, yet they resolve.
  builtins: ['unsafe', 'C'],
  // An import names a package; gopls answers its definition with one file of it (the one with the package doc).
  namesDirectory: true,
};

/** Method names of routers that register a handler for a path (net/http's ServeMux, gorilla/mux, gin, echo, chi). */
const ROUTERS = new Set(['HandleFunc', 'Handle', 'GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'Get', 'Post', 'Put', 'Patch', 'Delete']);

/** Names Go code gives its errors (`err`, `readErr`, `errClose`): a name rule, applied to an identifier node. */
// eslint-disable-next-line no-restricted-syntax -- a rule over an identifier's name, not over source text
const ERROR_NAME = /^\w*[eE]rr\w*$/;

/** `if err != nil` (any error-named identifier), from the condition's tree. */
function checksError(ifStatement: SyntaxNode): boolean {
  const cond = ifStatement.childForFieldName('condition');
  const left = cond?.childForFieldName('left');
  return (
    cond?.type === 'binary_expression' &&
    cond.childForFieldName('operator')?.text === '!=' &&
    cond.childForFieldName('right')?.type === 'nil' &&
    left?.type === 'identifier' &&
    ERROR_NAME.test(left.text)
  );
}

function hit(n: SyntaxNode): PatternFinding | undefined {
  if (n.type === 'if_statement')
    return checksError(n) ? errorHandling('if err != nil', 'errors checked and handled where they are returned (`if err != nil`)') : undefined;
  const fn = calleeText(n);
  if (fn === 'panic') return errorHandling('panic', 'failures raised with panic(...)');
  if (fn === 'errors.New') return errorHandling('errors.New', 'errors created with errors.New');
  if (fn === 'fmt.Errorf') {
    const wraps = (stringValue(firstArgument(n)) ?? '').includes('%w');
    return wraps
      ? errorHandling('fmt.Errorf %w', 'errors wrapped with fmt.Errorf("...: %w", err)')
      : errorHandling('fmt.Errorf', 'errors created with fmt.Errorf (not wrapping)');
  }
  const field = n.childForFieldName('function')?.childForFieldName('field')?.text ?? '';
  return ROUTERS.has(field) ? routeRegistration(fn, n, true) : undefined;
}

export const GO_PATTERNS: PatternSyntax = { query: '[(if_statement) (call_expression)] @node', hit };

export const GO_COMPLEXITY: ComplexitySyntax = {
  query: `
[(if_statement) (for_statement) (expression_case) (type_case) (communication_case)] @decision
(binary_expression operator: ["&&" "||"]) @decision
(comment) @comment
`,
};
