/**
 * Go declarations as gopls lists them in documentSymbol (gopls/internal/golang/symbols.go):
 * top-level functions; methods at the top level too, named `(*T).M` / `(T).M` after their receiver
 * type; each type spec (Struct, Interface, Function for a func type, Class for any other) with a
 * struct's fields and an interface's methods and embedded types as children (embedded ones named
 * after their type, ranged over the type); each name of a var or const spec. Ranges as go/ast's
 * nodes: a func from `func`, a type or value spec from its first name (never the doc comment), a
 * field with its tag. `_` is left out.
 */
import type { SymbolKind } from '../../schema/descriptors.js';
import type { SyntaxNode } from '../../syntax/syntax.js';
import type { DeclarationSyntax, SyntaxSymbol } from '../language-profile.js';
import { packageClause } from './package.js';

const K = { class: 5, method: 6, field: 8, interface: 11, function: 12, variable: 13, constant: 14, struct: 23 } as const;

/** The Go adapter's kind of gopls's: Struct is a struct, Class (a named non-struct type) a type. */
function kindOf(lspKind: number): SymbolKind {
  switch (lspKind) {
    case K.struct:
      return 'struct';
    case K.class:
      return 'type';
    case K.interface:
      return 'interface';
    case K.function:
      return 'function';
    case K.method:
      return 'method';
    case K.field:
      return 'field';
    case K.constant:
      return 'constant';
    default:
      return 'variable';
  }
}

function symbol(
  name: string,
  lspKind: number,
  range: { startIndex: number; endIndex: number },
  selection: number,
  children: SyntaxSymbol[] = [],
): SyntaxSymbol {
  return { name, lspKind, kind: kindOf(lspKind), start: range.startIndex, end: range.endIndex, selection, children };
}

/** gopls typeDetails: the symbol kind of a type expression and, for struct and interface types, their members. */
function typeDetails(type: SyntaxNode | null): { lspKind: number; children: SyntaxSymbol[] } {
  switch (type?.type) {
    case 'struct_type':
      return { lspKind: K.struct, children: fieldList(type.namedChildren.find((c) => c?.type === 'field_declaration_list') ?? null) };
    case 'interface_type':
      return { lspKind: K.interface, children: interfaceMembers(type) };
    case 'function_type':
      return { lspKind: K.function, children: [] };
    default:
      return { lspKind: K.class, children: [] };
  }
}

/** go/types ExprString of a type, closely enough for names: whitespace as gofmt writes it. */
function exprString(n: SyntaxNode): string {
  return n.text
    .replace(/\s+/g, ' ')
    .replace(/\s*\|\s*/g, ' | ')
    .replace(/\s*,\s*/g, ', ');
}

/** gopls embeddedIdent: the type name an embedded field is named after (`B` of `*B`, `Reader` of `io.Reader`, `List` of `List[T]`). */
function embeddedIdent(type: SyntaxNode | null): SyntaxNode | undefined {
  let x = type;
  if (x?.type === 'pointer_type') x = x.namedChildren[0] ?? null;
  if (x?.type === 'generic_type') x = x.childForFieldName('type');
  if (x?.type === 'type_identifier') return x;
  if (x?.type === 'qualified_type') return x.childForFieldName('name') ?? undefined;
  return undefined;
}

function fieldList(list: SyntaxNode | null): SyntaxSymbol[] {
  const out: SyntaxSymbol[] = [];
  for (const field of list?.namedChildren ?? []) {
    if (field?.type !== 'field_declaration') continue;
    const type = field.childForFieldName('type');
    const details = typeDetails(type);
    const names = field.childrenForFieldName('name').filter((n): n is SyntaxNode => !!n);
    if (names.length === 0) {
      // an embedded field: named after its type, ranged over its type (`*B`: the star too, no tag)
      const ident = embeddedIdent(type);
      const range = { startIndex: field.startIndex, endIndex: type?.endIndex ?? field.endIndex };
      out.push(symbol(ident ? ident.text : type ? exprString(type) : '', K.field, range, ident ? ident.startIndex : range.startIndex, details.children));
      continue;
    }
    for (const name of names) out.push(symbol(name.text, K.field, field, name.startIndex, details.children));
  }
  return out;
}

function interfaceMembers(iface: SyntaxNode): SyntaxSymbol[] {
  const out: SyntaxSymbol[] = [];
  for (const m of iface.namedChildren) {
    if (m?.type === 'method_elem' || m?.type === 'method_spec') {
      const name = m.childForFieldName('name');
      if (name) out.push(symbol(name.text, K.method, m, name.startIndex));
    } else if (m?.type === 'type_elem' || m?.type === 'constraint_elem') {
      const only = m.namedChildCount === 1 ? m.namedChildren[0]! : m;
      const ident = embeddedIdent(only);
      out.push(symbol(ident ? ident.text : exprString(only), K.field, only, ident ? ident.startIndex : only.startIndex, typeDetails(only).children));
    }
  }
  return out;
}

/** `(*Stack[T])` of a method's receiver, as gopls prefixes the method's name. */
function receiverText(method: SyntaxNode): string {
  const param = method.childForFieldName('receiver')?.namedChildren.find((c) => c?.type === 'parameter_declaration');
  const type = param?.childForFieldName('type');
  return type ? `(${exprString(type).replace(/^\*\s+/, '*')})` : '()';
}

function specs(decl: SyntaxNode, type: string): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  for (const c of decl.namedChildren) {
    if (c?.type === type || (type === 'type_spec' && c?.type === 'type_alias')) out.push(c);
    else if (c && c.type.endsWith('_spec_list')) out.push(...specs(c, type));
  }
  return out;
}

function valueSymbols(spec: SyntaxNode, lspKind: number): SyntaxSymbol[] {
  const details = spec.childForFieldName('type') ? typeDetails(spec.childForFieldName('type')) : { children: [] };
  return spec
    .childrenForFieldName('name')
    .filter((n): n is SyntaxNode => !!n && n.text !== '_')
    .map((name) => symbol(name.text, lspKind, spec, name.startIndex, details.children));
}

function read(root: SyntaxNode): SyntaxSymbol[] {
  const out: SyntaxSymbol[] = [];
  for (const decl of root.namedChildren) {
    if (!decl) continue;
    switch (decl.type) {
      case 'function_declaration':
      case 'method_declaration': {
        const name = decl.childForFieldName('name');
        if (!name || name.text === '_') break;
        const method = decl.type === 'method_declaration';
        out.push(symbol(method ? `${receiverText(decl)}.${name.text}` : name.text, method ? K.method : K.function, decl, name.startIndex));
        break;
      }
      case 'type_declaration':
        for (const spec of specs(decl, 'type_spec')) {
          const name = spec.childForFieldName('name');
          if (!name || name.text === '_') continue;
          const details = typeDetails(spec.childForFieldName('type'));
          out.push(symbol(name.text, details.lspKind, spec, name.startIndex, details.children));
        }
        break;
      case 'var_declaration':
      case 'const_declaration':
        for (const spec of specs(decl, decl.type === 'var_declaration' ? 'var_spec' : 'const_spec'))
          out.push(...valueSymbols(spec, decl.type === 'var_declaration' ? K.variable : K.constant));
        break;
      default:
        break;
    }
  }
  return out;
}

export const GO_DECLARATIONS: DeclarationSyntax = {
  read,
  packageOf: (_file, tree) => {
    const clause = tree.namedChildren.find((c) => c?.type === 'package_clause');
    const name = clause ? packageClause([clause.text]) : undefined;
    return name ? { package: name } : {};
  },
};
