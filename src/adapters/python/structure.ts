/**
 * Structure hooks of Python, read from parse trees: a class's bases (`class A(B, m.C, Generic[T],
 * metaclass=M)`: B, C and Generic — keyword arguments are no bases, a subscript names its value),
 * `from m import A as B` bindings and module-level `B = A` assignments, decorators, and function
 * bodies.
 */
import type { SyntaxNode } from '../../syntax/syntax.js';
import { baseAt, decoratorNodes, namedChildren, outermost } from '../structure-forms.js';
import { calleeText } from '../syntax-forms.js';
import type { AliasSyntax, BodySyntax, DeclaredBase, DecorationSyntax, NamedDeclarationSyntax, ScriptEntrySyntax, TypeHeaderSyntax } from '../syntax-hooks.js';

/** The identifier a base expression names (`B`, `m.C`, `Generic[T]`), or undefined for a call or anything else. */
function baseName(n: SyntaxNode): SyntaxNode | undefined {
  if (n.type === 'identifier') return n;
  if (n.type === 'attribute') return n.childForFieldName('attribute') ?? undefined;
  if (n.type === 'subscript') {
    const value = n.childForFieldName('value');
    return value ? baseName(value) : undefined;
  }
  return undefined;
}

export const PY_TYPE_HEADERS: TypeHeaderSyntax = {
  query: '(class_definition) @type',
  read(decl, at) {
    const name = decl.childForFieldName('name');
    if (!name) return undefined;
    const bases: DeclaredBase[] = [];
    const list = decl.childForFieldName('superclasses');
    for (const arg of list ? namedChildren(list) : []) {
      const ref = arg.type === 'subscript' ? (arg.childForFieldName('value') ?? arg) : arg;
      const base = baseName(arg);
      if (base) bases.push(baseAt(base, ref, 'extends', at, arg));
    }
    return { name: name.text, at: at(name), bases, modifiers: [] };
  },
};

/**
 * Every name an import binds (`from m import A as B`, `from m import A`, `import a.b as c`,
 * `import a.b` binding `a`), parenthesized over several lines or not, with its full name, and
 * module-level `Name = Other` assignments.
 */
export const PY_ALIASES: AliasSyntax = {
  query: `
(import_from_statement name: (aliased_import name: (dotted_name (identifier) @imported .) alias: (identifier) @local))
(import_from_statement name: (dotted_name (identifier) @imported @local .))
(import_statement name: (aliased_import name: (dotted_name) @imported alias: (identifier) @local))
(import_statement name: (dotted_name . (identifier) @local) @imported)
(module (expression_statement (assignment left: (identifier) @local right: [(identifier) (attribute)] @imported)) @assigned)
`,
  full(imported, local) {
    let stmt: SyntaxNode | null = imported;
    while (stmt && stmt.type !== 'import_from_statement' && stmt.type !== 'import_statement') stmt = stmt.parent;
    if (!stmt) return undefined;
    if (stmt.type === 'import_statement') return local.parent?.type === 'aliased_import' ? imported.text : local.text;
    const module = stmt.childForFieldName('module_name')?.text ?? '';
    return module.endsWith('.') ? `${module}${imported.text}` : `${module}.${imported.text}`;
  },
};

export const PY_DECORATIONS: DecorationSyntax = {
  query: '[(function_definition) (class_definition)] @declaration',
  read(decl) {
    const name = decl.childForFieldName('name');
    if (!name) return undefined;
    const first = outermost(decl, ['decorated_definition']);
    const decorators = (first === decl ? [] : decoratorNodes(first)).map((d) => ({ name: `@${calleeText(namedChildren(d)[0] ?? d)}`, node: d }));
    return { name, decorators, first };
  },
};

export const PY_BODIES: BodySyntax = { query: '(function_definition body: (_) @body)' };

/** `if __name__ == "__main__":` (either quote) at a module's top level. */
export const PY_SCRIPT_ENTRY: ScriptEntrySyntax = {
  query: `
(module (if_statement condition: (comparison_operator (identifier) @_name operators: "==" (string (string_content) @_value)) (#eq? @_name "__name__") (#eq? @_value "__main__")) @entry)
`,
  reason: '`if __name__ == "__main__":` runs it as a script',
};

/** Functions (methods directly in a class body) and classes. */
export const PY_NAMED_DECLARATIONS: NamedDeclarationSyntax = {
  query: `
[(function_definition) (class_definition)] @declaration
(lambda) @local
`,
  read(decl) {
    const name = decl.childForFieldName('name');
    if (!name) return undefined;
    if (decl.type === 'class_definition') return { name: name.text, kind: 'class', at: name };
    let p = decl.parent;
    while (p && p.type !== 'class_definition' && p.type !== 'function_definition') p = p.parent;
    return { name: name.text, kind: p?.type === 'class_definition' ? 'method' : 'function', at: name };
  },
};
