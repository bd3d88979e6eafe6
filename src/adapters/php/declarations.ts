/**
 * PHP declarations as intelephense lists them in documentSymbol (read from its answers on real
 * code; its source is not public): a `namespace X;` statement as a Namespace symbol of its own
 * (not a container), classes (Class), interfaces, traits (Module), enums with their cases (the
 * whole `case X = …;`), methods (`__construct` a Constructor), properties and constants (one per
 * element: `$x = 1`, `K = 1`), functions; a function's parameters (the whole parameter, `&` and
 * `...` included) and each variable at its first assignment (`$x =`, list/array destructuring,
 * `$a[] =`, foreach key and value, `static`, `global`, a catch clause — spanning the clause),
 * closures (`function () use (&$y)`, `fn () =>`) named `Closure` with their own parameters and
 * variables; top-level variables likewise. A declaration with a `/** … *\/` comment right above
 * it starts at that comment; a method or class otherwise at its attributes and modifiers, an
 * element at its name. A promoted constructor parameter is also a property of its class.
 *
 * One walk of steps per file (walk-steps.ts), shared with the function bodies' walks (locals.ts):
 * blocks, namespaces, functions, closures and classes inside closures nest without JS recursion.
 */
import type { SyntaxNode } from '../../syntax/syntax.js';
import { WalkSteps } from '../../syntax/walk-steps.js';
import type { DeclarationSyntax, SyntaxSymbol } from '../language-profile.js';
import { docTagMembers } from './doc-tags.js';
import { functionLocals } from './locals.js';
import { elementSignature, functionSignature, promotedSignature, typeSignature } from './signatures.js';
import { phpNamespace } from './source.js';
import { K, phpSymbol } from './symbols.js';

/** Where a declaration starts: at a `/** … *\/` comment right above it, else where `own` says. */
function startOf(n: SyntaxNode, own: number): number {
  const prev = n.previousSibling;
  return prev?.type === 'comment' && prev.text.startsWith('/**') ? prev.startIndex : own;
}

/** The steps of the file being read: read() runs them; a file is read synchronously, one at a time. */
const steps = new WalkSteps();

const TYPES: Record<string, number> = { class_declaration: K.class, interface_declaration: K.interface, trait_declaration: K.module, enum_declaration: K.enum };

function member(m: SyntaxNode, out: SyntaxSymbol[]): void {
  switch (m.type) {
    case 'method_declaration': {
      const name = m.childForFieldName('name');
      if (!name) return;
      const children = functionLocals(steps, m, membersOf);
      out.push(
        phpSymbol(
          name.text,
          name.text.toLowerCase() === '__construct' ? K.constructor : K.method,
          startOf(m, m.startIndex),
          m.endIndex,
          name.startIndex,
          children,
          functionSignature(m, true),
        ),
      );
      if (name.text.toLowerCase() === '__construct') out.push(...promoted(m));
      return;
    }
    case 'property_declaration':
      for (const e of m.namedChildren) {
        if (e?.type !== 'property_element') continue;
        const name = e.childForFieldName('name') ?? e.namedChildren[0];
        if (name) out.push(phpSymbol(name.text, K.property, startOf(m, e.startIndex), e.endIndex, name.startIndex, [], elementSignature(m, e, true)));
      }
      return;
    case 'const_declaration':
      constants(m, out, true);
      return;
    case 'enum_case': {
      const name = m.childForFieldName('name');
      if (name) out.push(phpSymbol(name.text, K.enumMember, startOf(m, m.startIndex), m.endIndex, name.startIndex));
      return;
    }
    default:
      return;
  }
}

function constants(decl: SyntaxNode, out: SyntaxSymbol[], member: boolean): void {
  for (const e of decl.namedChildren) {
    if (e?.type !== 'const_element') continue;
    const name = e.namedChildren.find((c) => c?.type === 'name');
    if (name) out.push(phpSymbol(name.text, K.constant, startOf(decl, e.startIndex), e.endIndex, name.startIndex, [], elementSignature(decl, e, member)));
  }
}

/** Constructor parameters with a visibility (`public readonly User $user`): properties of the class. */
function promoted(ctor: SyntaxNode): SyntaxSymbol[] {
  const out: SyntaxSymbol[] = [];
  for (const p of ctor.childForFieldName('parameters')?.namedChildren ?? []) {
    if (p?.type !== 'property_promotion_parameter') continue;
    const name = p.childForFieldName('name');
    if (name) out.push(phpSymbol(name.text, K.property, p.startIndex, p.endIndex, name.startIndex, [], promotedSignature(p)));
  }
  return out;
}

function membersOf(body: SyntaxNode | null): SyntaxSymbol[] {
  const out: SyntaxSymbol[] = [];
  for (const m of body?.namedChildren ?? []) if (m) member(m, out);
  return out;
}

function typeDeclaration(n: SyntaxNode, lspKind: number): SyntaxSymbol | undefined {
  const name = n.childForFieldName('name');
  if (!name) return undefined;
  const doc = n.previousSibling;
  const children: SyntaxSymbol[] = doc?.type === 'comment' && doc.text.startsWith('/**') ? docTagMembers(doc.text, doc.startIndex) : [];
  children.push(...membersOf(n.childForFieldName('body')));
  return phpSymbol(name.text, lspKind, startOf(n, n.startIndex), n.endIndex, name.startIndex, children, typeSignature(n));
}

/** Reads a statement in a step of its own, after the running one: blocks and namespaces nest without recursion. */
function statement(n: SyntaxNode, out: SyntaxSymbol[]): void {
  steps.then(() => statementIn(n, out));
}

function statementIn(n: SyntaxNode, out: SyntaxSymbol[]): void {
  const type = TYPES[n.type];
  if (type !== undefined) {
    const s = typeDeclaration(n, type);
    if (s) out.push(s);
    return;
  }
  switch (n.type) {
    case 'namespace_definition': {
      const name = n.childForFieldName('name');
      const body = n.childForFieldName('body');
      if (name) out.push(phpSymbol(name.text, K.namespace, n.startIndex, body ? n.endIndex : n.endIndex, name.startIndex));
      for (const s of body?.namedChildren ?? []) if (s) statement(s, out);
      return;
    }
    case 'function_definition': {
      const name = n.childForFieldName('name');
      if (name)
        out.push(
          phpSymbol(
            name.text,
            K.function,
            startOf(n, n.startIndex),
            n.endIndex,
            name.startIndex,
            functionLocals(steps, n, membersOf),
            functionSignature(n, false),
          ),
        );
      return;
    }
    case 'const_declaration':
      constants(n, out, false);
      return;
    // `if (! function_exists('f')) { function f() … }`: declarations inside top-level blocks count
    case 'if_statement':
    case 'compound_statement':
    case 'else_clause':
    case 'else_if_clause':
    case 'colon_block':
      for (const s of n.namedChildren) if (s) statement(s, out);
      return;
    default:
      return;
  }
}

function read(root: SyntaxNode): SyntaxSymbol[] {
  const out: SyntaxSymbol[] = [];
  let top: SyntaxSymbol[] = [];
  steps.run(() => {
    for (const n of root.namedChildren) if (n) statement(n, out);
    // top-level code's variables and closures, as a function body's
    steps.then(() => {
      top = functionLocals(steps, root, membersOf);
    });
  });
  out.push(...top);
  return out.sort((a, b) => a.start - b.start);
}

export const PHP_DECLARATIONS: DeclarationSyntax = {
  read,
  packageOf: (_file, _tree, text) => {
    const namespace = phpNamespace(text.split(/\r\n|\r|\n/));
    return namespace ? { namespace } : {};
  },
};
