/**
 * Structure hooks of TypeScript and JavaScript, read from parse trees: the bases a class or
 * interface header names (`extends` / `implements`, never a generic parameter's constraint or a type
 * argument), imports that rename (`import { A as B }`, default imports), decorators, and the bodies
 * of functions. The JavaScript grammar has no interfaces, no `implements` and no `extends_clause`
 * (its class heritage is the expression itself), so JavaScript has a type query of its own.
 */
import type { SourcePosition } from '../../syntax/positions.js';
import type { SyntaxNode } from '../../syntax/syntax.js';
import { baseAt, collapsed, decoratorNodes, headerText, namedChildren, outermost } from '../structure-forms.js';
import { calleeText } from '../syntax-forms.js';
import type { AliasSyntax, BodySyntax, DeclaredBase, DecorationSyntax, NamedDeclarationSyntax, SyntaxHook, TypeHeaderSyntax } from '../syntax-hooks.js';

/** The reference without its generic arguments: `Base` of `Base<T>`, `core.Base`. */
function pathOf(n: SyntaxNode): SyntaxNode {
  return n.type === 'generic_type' ? (n.childForFieldName('name') ?? n) : n;
}

/** The identifier a heritage reference names (`Base`, `core.Base`, `Base<T>`), or undefined for an expression (`mixin(Base)`). */
function referencedName(n: SyntaxNode): SyntaxNode | undefined {
  switch (n.type) {
    case 'identifier':
    case 'type_identifier':
      return n;
    case 'member_expression':
      return n.childForFieldName('property') ?? undefined;
    case 'nested_type_identifier':
      return n.childForFieldName('name') ?? undefined;
    case 'generic_type': {
      const name = n.childForFieldName('name');
      return name ? referencedName(name) : undefined;
    }
    default:
      return undefined;
  }
}

function headerBases(decl: SyntaxNode, at: (n: SyntaxNode) => SourcePosition): DeclaredBase[] {
  const out: DeclaredBase[] = [];
  const add = (ref: SyntaxNode | null | undefined, relation: DeclaredBase['relation'], written?: string) => {
    const name = ref ? referencedName(ref) : undefined;
    if (ref && name) out.push(baseAt(name, pathOf(ref), relation, at, written ?? ref));
  };
  for (const part of namedChildren(decl)) {
    if (part.type === 'class_heritage') {
      for (const clause of namedChildren(part)) {
        const value = clause.childForFieldName('value');
        // `extends Base<T>`: the class's base is an expression, its type arguments a field beside it
        if (clause.type === 'extends_clause') add(value, 'extends', value ? value.text + (clause.childForFieldName('type_arguments')?.text ?? '') : undefined);
        else if (clause.type === 'implements_clause') for (const t of namedChildren(clause)) add(t, 'implements');
        // JavaScript: `class A extends <expression>`
        else add(clause, 'extends');
      }
    } else if (part.type === 'extends_type_clause') {
      for (const t of part.childrenForFieldName('type')) add(t, 'extends');
    }
  }
  return out;
}

const TYPE_READER: Omit<TypeHeaderSyntax, 'query'> = {
  read(decl, at) {
    const name = decl.childForFieldName('name');
    if (!name) return undefined;
    const params = decl.childForFieldName('type_parameters');
    const modifiers = decl.type === 'abstract_class_declaration' ? ['abstract'] : [];
    const outer = outermost(decl, ['export_statement', 'ambient_declaration', 'expression_statement']);
    const decorators = decoratorNodes(outer);
    const body = decl.childForFieldName('body');
    const header = headerText(outer, body?.startIndex ?? decl.endIndex, decorators.length ? decorators[decorators.length - 1]!.endIndex : outer.startIndex);
    return { name: name.text, at: at(name), bases: headerBases(decl, at), modifiers, header, ...(params ? { type_parameters: collapsed(params) } : {}) };
  },
};

/** Enums and namespaces have headers and no bases. */
export const TS_TYPE_HEADERS: TypeHeaderSyntax = {
  ...TYPE_READER,
  query: '[(class_declaration) (abstract_class_declaration) (interface_declaration) (enum_declaration) (internal_module) (module)] @type',
};
export const JS_TYPE_HEADERS: TypeHeaderSyntax = { ...TYPE_READER, query: '(class_declaration) @type' };

/** `export { a, b as c }` without `from` (one with `from` re-exports another module: the import scan's). */
export const JS_EXPORT_CLAUSES: SyntaxHook = {
  query: '(export_statement !source (export_clause (export_specifier name: (_) @local)))',
};

export const TS_ALIASES: AliasSyntax = {
  query: `
(import_specifier name: (_) @imported alias: (_) @local)
(import_clause (identifier) @local)
`,
};

const JS_DECLARATIONS = [
  'class_declaration',
  'function_declaration',
  'generator_function_declaration',
  'method_definition',
  'lexical_declaration',
  'variable_declaration',
];
/** TypeScript's grammars add abstract classes, interfaces, type aliases, enums and method signatures. */
const TS_DECLARATIONS = [
  ...JS_DECLARATIONS,
  'abstract_class_declaration',
  'interface_declaration',
  'type_alias_declaration',
  'enum_declaration',
  'method_signature',
  'abstract_method_signature',
];

const declarationQuery = (types: string[]) => `[${types.map((t) => `(${t})`).join(' ')}] @declaration`;

export const JS_DECORATIONS: DecorationSyntax = { query: declarationQuery(JS_DECLARATIONS), read: readDecoration };
export const TS_DECORATIONS: DecorationSyntax = { query: declarationQuery(TS_DECLARATIONS), read: readDecoration };

/** Exported declarations start at `export` (which holds a class's decorators in the TypeScript grammar). */
function readDecoration(decl: SyntaxNode): ReturnType<DecorationSyntax['read']> {
  // `const useCart = () => …`: the declaration of its first declarator's name
  const declarator =
    decl.type.endsWith('_declaration') && !decl.childForFieldName('name') ? namedChildren(decl).find((c) => c.type === 'variable_declarator') : undefined;
  const name = (declarator ?? decl).childForFieldName('name');
  if (!name) return undefined;
  const first = outermost(decl, ['export_statement']);
  // an exported class's decorators are children of `export …` and siblings before the class: each once
  const nodes = [...(first !== decl ? decoratorNodes(first) : []), ...decoratorNodes(decl)].filter(
    (d, i, all) => all.findIndex((o) => o.startIndex === d.startIndex) === i,
  );
  const decorators = nodes.map((d) => ({ name: `@${calleeText(namedChildren(d)[0] ?? d)}`, node: d }));
  return { name, decorators, first: nodes[0] && nodes[0].startIndex < first.startIndex ? nodes[0] : first };
}

export const JS_BODIES: BodySyntax = {
  query: `
(function_declaration body: (_) @body)
(generator_function_declaration body: (_) @body)
(function_expression body: (_) @body)
(arrow_function body: (statement_block) @body)
(method_definition body: (_) @body)
`,
};

/** Declaration node types and the catalog kind each declares (changed_symbols' deleted symbols). */
const JS_NAMED: Record<string, string> = {
  function_declaration: 'function',
  generator_function_declaration: 'function',
  class_declaration: 'class',
  method_definition: 'method',
  variable_declarator: 'variable',
};
const TS_NAMED: Record<string, string> = {
  ...JS_NAMED,
  abstract_class_declaration: 'class',
  interface_declaration: 'interface',
  type_alias_declaration: 'type',
  enum_declaration: 'enum',
  method_signature: 'method',
  abstract_method_signature: 'method',
  internal_module: 'namespace',
};

function namedDeclarations(kinds: Record<string, string>): NamedDeclarationSyntax {
  return {
    query: `[${Object.keys(kinds)
      .map((t) => `(${t})`)
      .join(' ')}] @declaration
[(arrow_function) (function_expression) (generator_function)] @local`,
    read(decl) {
      const name = decl.childForFieldName('name');
      const declared = kinds[decl.type];
      // a destructuring declarator (`const { a } = x`) names no one declaration
      if (!name || !declared || (declared === 'variable' && name.type !== 'identifier')) return undefined;
      const kind = declared === 'variable' && decl.parent?.text.startsWith('const') ? 'constant' : declared;
      return { name: name.text, kind, at: name };
    },
  };
}

export const JS_NAMED_DECLARATIONS = namedDeclarations(JS_NAMED);
export const TS_NAMED_DECLARATIONS = namedDeclarations(TS_NAMED);
