/**
 * Syntax hooks of Python: `import a.b [as c]` and `from [.]a import b` (relative too), decorators
 * (route decorators such as `@app.route("/x")` apart), `try`/`except`/`raise`, and complexity
 * decision points (comprehension clauses and `and`/`or` included).
 */
import type { SourcePosition } from '../../syntax/positions.js';
import type { SyntaxNode } from '../../syntax/syntax.js';
import type { FoundImport, ImportSyntax } from '../language-profile.js';
import { collapsed } from '../structure-forms.js';
import { calleeText, errorHandling, HTTP_VERBS, routeRegistration } from '../syntax-forms.js';
import type { ComplexitySyntax, PatternFinding, PatternSyntax } from '../syntax-hooks.js';

function readImport(stmt: SyntaxNode, kind: string, spec: SyntaxNode | undefined, at: (n: SyntaxNode) => SourcePosition): FoundImport[] {
  if (!spec) return [];
  // Definition on the last segment of `a.b.c` names the module c; `from .. import q` has no
  // segment, so its imported names are asked instead (each is a module or a package member).
  const ids = spec.descendantsOfType('identifier').filter((n): n is SyntaxNode => !!n);
  const ask = ids.length ? [at(ids[ids.length - 1]!)] : [];
  const names: string[] = [];
  const members: FoundImport[] = [];
  if (kind === 'from') {
    for (const n of stmt.childrenForFieldName('name')) {
      if (!n) continue;
      const name = n.type === 'aliased_import' ? n.childForFieldName('name') : n;
      if (!name) continue;
      names.push(name.text);
      const where = at(name);
      if (!ids.length) ask.push(where);
      // one name (`from email import errors`), not a dotted one: it can be a submodule
      if (name.type === 'dotted_name' && name.namedChildCount === 1) {
        const specifier = spec.text.endsWith('.') ? `${spec.text}${name.text}` : `${spec.text}.${name.text}`;
        members.push({ kind: 'import', specifier, line: where.line, ask: [where], names: [name.text], member: name.text });
      }
    }
    if (stmt.descendantsOfType('wildcard_import').length) names.push('*');
  } else {
    const alias = spec.parent?.type === 'aliased_import' ? spec.parent.childForFieldName('alias') : null;
    names.push(alias ? alias.text : spec.text);
  }
  return [{ kind: 'import', specifier: spec.text, line: at(spec).line, ask, names }, ...members];
}

// eslint-disable-next-line no-restricted-syntax -- a rule over a file's path, not over source text
const isPackageModule = (target: string) => /(^|[/\\])__init__\.pyi?$/.test(target);

export const PY_IMPORTS: ImportSyntax = {
  query: `
(import_statement name: (dotted_name) @spec) @import
(import_statement name: (aliased_import name: (dotted_name) @spec)) @import
(import_from_statement module_name: (_) @spec) @from
`,
  read: readImport,
  isPackageModule,
  packageModules: ['__init__.py', '__init__.pyi'],
  submoduleFiles: (name) => [`${name}.py`, `${name}/__init__.py`],
  isModuleNamed(target, name) {
    // eslint-disable-next-line no-restricted-syntax -- a path's parts, not source text
    const parts = target.split(/[/\\]/);
    const base = parts[parts.length - 1]!;
    return base === `${name}.py` || base === `${name}.pyi` || (isPackageModule(target) && parts[parts.length - 2] === name);
  },
};

function hit(n: SyntaxNode): PatternFinding | undefined {
  switch (n.type) {
    case 'decorator': {
      const expr = n.namedChildren[0];
      if (!expr) return undefined;
      const name = calleeText(expr);
      const verb = name.split('.').pop() ?? '';
      if (expr.type === 'call' && name.includes('.') && HTTP_VERBS.has(verb)) {
        const route = routeRegistration(`@${name}`, expr, true);
        if (route) return route;
      }
      return { pattern_type: 'decorators', name: `@${name}`, description: `declarations decorated with @${name}` };
    }
    case 'try_statement':
      return errorHandling('try/except', 'errors handled with try/except blocks');
    case 'except_clause': {
      const value = n.namedChildren.find((c) => c && c.type !== 'block');
      if (!value) return errorHandling('bare except', 'bare `except:` clauses that catch everything');
      const types = value.type === 'as_pattern' ? value.namedChildren[0] : value;
      return errorHandling(`except ${types ? collapsed(types) : value.text}`, `exceptions caught as \`except ${types?.text ?? ''}\``);
    }
    case 'raise_statement': {
      const v = n.namedChildren[0];
      if (!v) return errorHandling('re-raise', 'bare `raise` re-raising the current exception');
      const name = v.type === 'call' ? calleeText(v) : v.text;
      return errorHandling(`raise ${name}`, `exceptions raised as \`raise ${name}\``);
    }
    default:
      return undefined;
  }
}

export const PY_PATTERNS: PatternSyntax = { query: '[(decorator) (try_statement) (except_clause) (raise_statement)] @node', hit };

/**
 * Docstrings count like comments: a string that is the first statement of a module, class or
 * function body is documentation, not code (PEP 257).
 */
export const PY_COMPLEXITY: ComplexitySyntax = {
  query: `
[(if_statement) (elif_clause) (for_statement) (while_statement) (except_clause) (conditional_expression) (case_clause) (for_in_clause) (if_clause)] @decision
(boolean_operator) @decision
(comment) @comment
(module . (expression_statement . [(string) (concatenated_string)] @comment .))
(function_definition body: (block . (expression_statement . [(string) (concatenated_string)] @comment .)))
(class_definition body: (block . (expression_statement . [(string) (concatenated_string)] @comment .)))
`,
};
