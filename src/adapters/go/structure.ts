/**
 * Structure hooks of Go, read from parse trees. Only embedding relates Go types in a header: a
 * struct's embedded fields (`Base`, `*Local`, `pkg.Thing`, `Inner[T]`, wherever gofmt puts them) and
 * the interfaces an interface embeds (`io.Reader`); `Name string` is a field, `~int | string` a type
 * set, neither a relation. Interfaces a type satisfies are the server's answer (implicitInterfaces).
 */
import type { SyntaxNode } from '../../syntax/syntax.js';
import { baseAt, collapsed, namedChildren } from '../structure-forms.js';
import type { BodySyntax, DeclaredBase, DecorationSyntax, NamedDeclarationSyntax, TypeHeaderSyntax } from '../syntax-hooks.js';

/** The type name of an embedded type (`Base`, `pkg.Thing`, `Inner[T]`), or undefined for any other type expression. */
function embeddedName(t: SyntaxNode): SyntaxNode | undefined {
  if (t.type === 'type_identifier') return t;
  if (t.type === 'qualified_type') return t.childForFieldName('name') ?? undefined;
  if (t.type === 'generic_type') {
    const inner = t.childForFieldName('type');
    return inner ? embeddedName(inner) : undefined;
  }
  return undefined;
}

function embedded(type: SyntaxNode): SyntaxNode[] {
  if (type.type === 'struct_type') {
    const fields = namedChildren(type).find((c) => c.type === 'field_declaration_list');
    // an embedded field has a type and no name
    return (fields ? namedChildren(fields) : [])
      .filter((f) => f.type === 'field_declaration' && !f.childForFieldName('name'))
      .map((f) => f.childForFieldName('type'))
      .filter((t): t is SyntaxNode => !!t);
  }
  if (type.type === 'interface_type') {
    return namedChildren(type)
      .filter((e) => e.type === 'type_elem' && e.namedChildCount === 1)
      .map((e) => namedChildren(e)[0]!);
  }
  return [];
}

export const GO_TYPE_HEADERS: TypeHeaderSyntax = {
  query: '(type_spec) @type',
  read(decl, at) {
    const name = decl.childForFieldName('name');
    const type = decl.childForFieldName('type');
    if (!name || !type) return undefined;
    const bases: DeclaredBase[] = [];
    for (const t of embedded(type)) {
      const n = embeddedName(t);
      if (n) bases.push(baseAt(n, t.type === 'generic_type' ? (t.childForFieldName('type') ?? t) : t, 'embeds', at, t));
    }
    const params = decl.childForFieldName('type_parameters');
    return { name: name.text, at: at(name), bases, modifiers: [], ...(params ? { type_parameters: collapsed(params) } : {}) };
  },
};

export const GO_DECORATIONS: DecorationSyntax = {
  query: '[(function_declaration) (method_declaration) (type_spec) (method_elem)] @declaration',
  read(decl) {
    const name = decl.childForFieldName('name');
    if (!name) return undefined;
    // `type X struct{…}` alone: its doc comment is above `type`; inside `type ( … )`, above the spec
    const parent = decl.parent;
    const first = parent?.type === 'type_declaration' && parent.namedChildCount === 1 ? parent : decl;
    return { name, decorators: [], first };
  },
};

export const GO_BODIES: BodySyntax = {
  query: `
(function_declaration body: (_) @body)
(method_declaration body: (_) @body)
(func_literal body: (_) @body)
`,
};

/** Functions, methods (qualified by their receiver's type, as gopls names them) and type specs. */
export const GO_NAMED_DECLARATIONS: NamedDeclarationSyntax = {
  query: `
[(function_declaration) (method_declaration) (type_spec)] @declaration
(func_literal) @local
`,
  read(decl) {
    // the method name is a field_identifier without a field name in some grammar versions
    const name = decl.childForFieldName('name') ?? namedChildren(decl).find((c) => c.type === 'field_identifier' || c.type === 'type_identifier');
    if (!name) return undefined;
    if (decl.type === 'function_declaration') return { name: name.text, kind: 'function', at: name };
    if (decl.type === 'method_declaration') {
      // `(s *Square[T])` → `Square`
      const owner = decl
        .childForFieldName('receiver')
        ?.descendantsOfType('type_identifier')
        .find((x): x is SyntaxNode => !!x)?.text;
      return { name: name.text, kind: 'method', at: name, ...(owner ? { owner } : {}) };
    }
    const t = decl.childForFieldName('type')?.type;
    return { name: name.text, kind: t === 'struct_type' ? 'struct' : t === 'interface_type' ? 'interface' : 'type', at: name };
  },
};
