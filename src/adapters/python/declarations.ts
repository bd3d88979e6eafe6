/**
 * Python declarations as pyright lists them in documentSymbol (its SymbolIndexer): per scope —
 * the module, each class, each function — one symbol per name its binder binds there (classes,
 * functions, assigned names, loop/with/except targets,
 * walrus targets, `self.x` assigned in a method as a member of its class; imports are bound but
 * never listed), each from its primary declaration: the last one with a type (a def, a class, an
 * annotation, an import), else the first. A class or function spans from its first decorator to
 * its last statement, with the scope of that declaration as children; anything else spans its name.
 * Parameters are bound (a body's assignment to one is not a new symbol) but never listed, as the
 * server's catalog leaves pyright's parameter children out (parameters.ts). Kinds as pyright's getSymbolKind: Method for a def in a
 * class, Constant for an upper-case or `Final` name, Variable otherwise.
 */
import { parentOf, type SyntaxCapture, type SyntaxNode } from '../../syntax/syntax.js';
import type { DeclarationSyntax, SyntaxSymbol } from '../language-profile.js';
import { pythonKind } from './kinds.js';
import { modulePath } from './module.js';
import { declarationsOfScopes, type PyDecl, type ScopeKey } from './scopes.js';

const K = { class: 5, method: 6, function: 12, variable: 13, constant: 14 } as const;

/** pyright's isConstantName: upper case, digits and underscores, not only underscores. */
const CONSTANT_NAME = /^[A-Z0-9_]+$/;

function lspKindOf(decl: PyDecl, name: string): number | undefined {
  switch (decl.type) {
    case 'class':
      return K.class;
    case 'function':
      return decl.method ? K.method : K.function;
    case 'param':
      // pyright lists parameters as Variable children of their function; the server's catalog
      // drops them (parameters.ts: names of a signature, not symbols anyone looks up), and so does
      // this one. A name whose primary declaration is in the body stays, as it does there.
      return undefined;
    case 'variable':
      if (name === '_') return undefined;
      return (CONSTANT_NAME.test(name) && !/^_+$/.test(name)) || decl.final ? K.constant : K.variable;
    case 'alias':
      return undefined;
    default:
      return K.variable;
  }
}

/** pyright's getLastTypedDeclarationForSymbol, else the first declaration. */
function primary(decls: PyDecl[]): PyDecl {
  for (let i = decls.length - 1; i >= 0; i--) if (decls[i]!.typed) return decls[i]!;
  return decls[0]!;
}

/** `@staticmethod`, `@functools.cache`, `@app.route("/x")` → `staticmethod`, `functools.cache`, `app.route`, from the tree. */
function decoratorNames(def: SyntaxNode): string[] {
  const parent = parentOf(def);
  if (parent?.type !== 'decorated_definition') return [];
  const out: string[] = [];
  for (const d of parent.namedChildren) {
    if (d?.type !== 'decorator') continue;
    let e = d.namedChildren[0];
    if (e?.type === 'call') e = e.childForFieldName('function');
    if (e) out.push(e.text);
  }
  return out;
}

interface Reading {
  scopes: Map<ScopeKey, Map<string, PyDecl[]>>;
}

function symbolsOf(scope: ScopeKey, r: Reading, inClass: boolean, topLevel: boolean): SyntaxSymbol[] {
  const out: SyntaxSymbol[] = [];
  for (const [name, decls] of r.scopes.get(scope) ?? []) {
    const decl = primary(decls);
    const lspKind = lspKindOf(decl, name);
    if (lspKind === undefined) continue;
    const scoped = decl.type === 'class' || decl.type === 'function';
    const children = scoped ? symbolsOf(decl.node.id, r, decl.type === 'class', false) : [];
    const kind = pythonKind(lspKind, name, { inClass, topLevel, decorators: () => decoratorNames(decl.node) });
    out.push({ name, lspKind, kind, start: decl.start, end: decl.end, selection: decl.name.startIndex, children });
  }
  return out;
}

function read(root: SyntaxNode, _text: string, captures: readonly SyntaxCapture[]): SyntaxSymbol[] {
  const scopes = declarationsOfScopes(root, captures);
  return symbolsOf(root.id, { scopes }, false, true);
}

/**
 * What binds a name, found with one query over the file; declarations.ts's reader puts each in its
 * scope (scopes.ts). Function and class names, assignment, augmented-assignment, for and `as`
 * targets, walrus names, imports, `global`/`nonlocal`, `type` aliases and parameter lists.
 */
const QUERY = `
(function_definition name: (identifier) @def)
(class_definition name: (identifier) @def)
(assignment left: (_) @target)
(augmented_assignment left: (_) @target)
(for_statement left: (_) @target)
(as_pattern alias: (as_pattern_target) @target)
(named_expression name: (identifier) @walrus)
(import_statement) @import
(import_from_statement) @import
(global_statement) @global
(nonlocal_statement) @global
(type_alias_statement left: (type) @alias_type)
(parameters) @params
(case_pattern (dotted_name . (identifier) @capture))
(splat_pattern (identifier) @capture)
`;

export const PY_DECLARATIONS: DeclarationSyntax = {
  query: QUERY,
  read,
  packageOf: (file) => {
    const mod = modulePath(file.absPath, file.workspaceRoot);
    return mod ? { package: mod } : {};
  },
};
