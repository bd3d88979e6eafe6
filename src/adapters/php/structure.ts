/**
 * Structure hooks of PHP, read from parse trees: the bases of a class, interface or enum header
 * (`extends`, `implements`; a namespaced name by its last part), wherever the header sits below a
 * docblock and attributes; `use A\B as C` bindings; attributes (`#[Scope]`); function bodies; the
 * docblock of a declaration above its attributes.
 */
import type { SyntaxNode } from '../../syntax/syntax.js';
import { baseAt, headerText, namedChildren } from '../structure-forms.js';
import type { AliasSyntax, BodySyntax, DeclaredBase, DecorationSyntax, DocCommentSyntax, NamedDeclarationSyntax, TypeHeaderSyntax } from '../syntax-hooks.js';

/** `Base` of `Base`, `\App\Base`, `Models\Base`. */
function lastName(n: SyntaxNode): SyntaxNode | undefined {
  if (n.type === 'name') return n;
  if (n.type === 'qualified_name')
    return namedChildren(n)
      .filter((c) => c.type === 'name')
      .pop();
  return undefined;
}

export const PHP_TYPE_HEADERS: TypeHeaderSyntax = {
  query: '[(class_declaration) (interface_declaration) (trait_declaration) (enum_declaration)] @type',
  read(decl, at) {
    const name = decl.childForFieldName('name');
    if (!name) return undefined;
    const bases: DeclaredBase[] = [];
    for (const clause of namedChildren(decl)) {
      const relation = clause.type === 'base_clause' ? 'extends' : clause.type === 'class_interface_clause' ? 'implements' : undefined;
      if (!relation) continue;
      for (const ref of namedChildren(clause)) {
        const last = lastName(ref);
        if (last) bases.push(baseAt(last, ref, relation, at));
      }
    }
    const modifiers = namedChildren(decl)
      .filter((c) => MODIFIERS.has(c.type))
      .map((c) => c.text);
    // the header starts after the attributes and ends where the body opens
    const attributes = decl.childForFieldName('attributes');
    const header = headerText(decl, decl.childForFieldName('body')?.startIndex ?? decl.endIndex, attributes?.endIndex ?? decl.startIndex);
    return { name: name.text, at: at(name), bases, modifiers, header, traits: traitsOf(decl) };
  },
};

/** `use A, B\\C { … }` statements anywhere in a class or trait body, each over however many lines. */
function traitsOf(decl: SyntaxNode): string[] {
  const body = decl.childForFieldName('body');
  const uses = body ? namedChildren(body).filter((c) => c.type === 'use_declaration') : [];
  return uses.flatMap((u) =>
    namedChildren(u)
      .filter((n) => n.type === 'name' || n.type === 'qualified_name')
      .map((n) => n.text),
  );
}

const MODIFIERS = new Set(['abstract_modifier', 'final_modifier', 'readonly_modifier']);

/**
 * Class imports (`use function` / `use const` left out), renaming or not, grouped or not: a
 * renaming one lets a base named by its alias be found, each gives the full name descriptors
 * resolve short names with.
 */
export const PHP_ALIASES: AliasSyntax = {
  query: `
(namespace_use_clause !type . [(name) (qualified_name)] @imported alias: (name) @local)
(namespace_use_clause !type !alias . [(name) (qualified_name)] @imported @local)
`,
  full(imported) {
    const group = imported.parent?.parent;
    const prefix = group?.type === 'namespace_use_group' ? namedChildren(group.parent!).find((c) => c.type === 'namespace_name')?.text : undefined;
    const name = prefix ? `${prefix}\\${imported.text}` : imported.text;
    return name.startsWith('\\') ? name.slice(1) : name;
  },
};

export const PHP_DECORATIONS: DecorationSyntax = {
  query: '[(class_declaration) (interface_declaration) (trait_declaration) (enum_declaration) (method_declaration) (function_definition)] @declaration',
  read(decl) {
    const name = decl.childForFieldName('name');
    if (!name) return undefined;
    const decorators: { name: string; node: SyntaxNode }[] = [];
    for (const a of decl.childForFieldName('attributes')?.descendantsOfType('attribute') ?? []) {
      if (a) decorators.push({ name: `#[${namedChildren(a)[0]?.text ?? a.text}]`, node: a });
    }
    return { name, decorators, first: decl };
  },
};

export const PHP_BODIES: BodySyntax = {
  query: `
(method_declaration body: (_) @body)
(function_definition body: (_) @body)
(anonymous_function body: (_) @body)
`,
};

/** A declaration's attributes are part of its node, so the docblock is the comment right above the first of them. */
export const PHP_DOC_COMMENTS: DocCommentSyntax = {
  query: `[
  (class_declaration) (interface_declaration) (trait_declaration) (enum_declaration) (enum_case)
  (method_declaration) (function_definition) (property_declaration) (const_declaration)
] @declaration`,
  isDoc: (comment) => comment.text.startsWith('/**'),
};

const PHP_NAMED: Record<string, string> = {
  function_definition: 'function',
  class_declaration: 'class',
  interface_declaration: 'interface',
  trait_declaration: 'trait',
  enum_declaration: 'enum',
  method_declaration: 'method',
};

/** Functions, classes, interfaces, traits, enums and methods (conditional declarations included: `if (!function_exists('f'))`). */
export const PHP_NAMED_DECLARATIONS: NamedDeclarationSyntax = {
  query: `[${Object.keys(PHP_NAMED)
    .map((t) => `(${t})`)
    .join(' ')}] @declaration
[(anonymous_function) (arrow_function)] @local`,
  read(decl) {
    const name = decl.childForFieldName('name');
    const kind = PHP_NAMED[decl.type];
    return name && kind ? { name: name.text, kind, at: name } : undefined;
  },
};
