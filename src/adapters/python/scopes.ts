/**
 * Python's binding rules for the syntax catalog (declarations.ts): which scope a name is bound in
 * and by what declaration, as pyright's binder decides — a def's or class's name in the enclosing
 * scope; parameters and a body's names in the function; comprehension and lambda scopes are their
 * own (not listed), except that a walrus binds through comprehensions; `self.x = …` in a method
 * binds `x` in its class, after the class body's own names; `global` and `nonlocal` send a name to
 * the module or the enclosing function.
 */
import { parentOf, type SyntaxCapture, type SyntaxNode } from '../../syntax/syntax.js';
import { bindingOrder, Reachability } from './flow.js';

export type ScopeKey = number;

export interface PyDecl {
  type: 'class' | 'function' | 'param' | 'variable' | 'alias' | 'typeAlias';
  /** The definition (class, function: its id keys its scope) or the binding node. */
  node: SyntaxNode;
  name: SyntaxNode;
  start: number;
  end: number;
  /** Has a type to pyright (hasTypeForDeclaration): defs, classes, imports, annotated names and parameters. */
  typed: boolean;
  final?: boolean;
  /** A def directly in a class. */
  method?: boolean;
  /** Bound after the scope's own statements (a member assigned in a method, a global assigned in a function). */
  late?: boolean;
  /** Where pyright's binder binds it among the scope's own statements (flow.ts bindingOrder). */
  order?: number;
}

const COMPREHENSIONS = new Set(['list_comprehension', 'set_comprehension', 'dictionary_comprehension', 'generator_expression']);

/**
 * Names pyright's binder puts in every module and class scope itself (_addImplicitSymbolToCurrentScope):
 * they are never listed, whatever assigns them.
 */
const IMPLICIT = {
  module: new Set([
    '__name__',
    '__loader__',
    '__package__',
    '__spec__',
    '__path__',
    '__file__',
    '__cached__',
    '__annotations__',
    '__dict__',
    '__builtins__',
    '__doc__',
  ]),
  class: new Set(['__doc__', '__module__', '__qualname__']),
  function: new Set<string>(),
};

interface Scope {
  node: SyntaxNode;
  kind: 'module' | 'class' | 'function';
}

/** What one step up decides: the scope, no scope (undefined), or to look further up (UP). */
const UP = Symbol('up');

function scopeStep(p: SyntaxNode, child: SyntaxNode, walrus: boolean): Scope | undefined | typeof UP {
  switch (p.type) {
    case 'module':
      return { node: p, kind: 'module' };
    case 'class_definition':
      return p.childForFieldName('body')?.id === child.id ? { node: p, kind: 'class' } : UP;
    case 'function_definition':
      return p.childForFieldName('body')?.id === child.id || child.type === 'parameters' ? { node: p, kind: 'function' } : UP;
    case 'lambda':
      return p.childForFieldName('body')?.id === child.id || child.type === 'lambda_parameters' ? undefined : UP;
    default:
      return COMPREHENSIONS.has(p.type) && !walrus ? undefined : UP;
  }
}

/**
 * bindingScope's answers for the tree being read, by the node the walk up starts from (null: no
 * scope): a file's bindings share their ancestors, and each step up asks the tree for a type.
 */
const scopesFrom = { tree: undefined as unknown, plain: new Map<number, Scope | null>(), walrus: new Map<number, Scope | null>() };

/** The scope a node binds in; undefined in a lambda or a comprehension (walrus: through comprehensions). */
export function bindingScope(node: SyntaxNode, walrus = false): Scope | undefined {
  if (node.tree !== scopesFrom.tree) {
    scopesFrom.tree = node.tree;
    scopesFrom.plain.clear();
    scopesFrom.walrus.clear();
  }
  const known = walrus ? scopesFrom.walrus : scopesFrom.plain;
  const walked: number[] = [];
  let found: Scope | null = null;
  let child = node;
  for (let p = parentOf(node); p; child = p, p = parentOf(p)) {
    const memo = known.get(child.id);
    if (memo !== undefined) {
      found = memo;
      break;
    }
    walked.push(child.id);
    const step = scopeStep(p, child, walrus);
    if (step !== UP) {
      found = step ?? null;
      break;
    }
  }
  for (const id of walked) known.set(id, found);
  return found ?? undefined;
}

/** Where a node ends without trailing comments (pyright's suite ends at its last statement). */
function endOf(n: SyntaxNode): number {
  // down the last children in a loop: a function's last statement may nest 100,000 deep
  for (let node = n; ;) {
    let last = node.lastChild;
    while (last?.type === 'comment') last = last.previousSibling;
    if (!last) return node.endIndex;
    if (last.childCount === 0) return last.endIndex;
    node = last;
  }
}

function isFinalAnnotation(type: SyntaxNode | null): boolean {
  return !!type && /^(typing\.)?Final$/.test(type.text.trim());
}

class Binder {
  readonly scopes = new Map<ScopeKey, Map<string, PyDecl[]>>();
  /** Names a function declares `global` / `nonlocal`, by the function's id. */
  private readonly redirects = new Map<ScopeKey, Map<string, 'global' | 'nonlocal'>>();

  private readonly reach = new Reachability();

  constructor(private readonly module: SyntaxNode) {}

  add(scope: Scope, nameText: string, decl: PyDecl): void {
    // pyright declares nothing in code its binder finds unreachable
    if (!this.reach.reaches(decl.node)) return;
    decl.order = bindingOrder(decl.node);
    const redirect = this.redirects.get(scope.node.id)?.get(nameText);
    let target = scope;
    if (redirect === 'global') target = { node: this.module, kind: 'module' };
    else if (redirect === 'nonlocal') target = this.enclosingFunction(scope.node) ?? scope;
    if (target !== scope) decl.late = true;
    if (IMPLICIT[target.kind].has(nameText)) return;
    let names = this.scopes.get(target.node.id);
    if (!names) this.scopes.set(target.node.id, (names = new Map()));
    const list = names.get(nameText);
    if (list) list.push(decl);
    else names.set(nameText, [decl]);
  }

  private enclosingFunction(fn: SyntaxNode): Scope | undefined {
    for (let s = bindingScope(fn); s; s = bindingScope(s.node)) if (s.kind === 'function') return s;
    return undefined;
  }

  redirect(stmt: SyntaxNode, how: 'global' | 'nonlocal'): void {
    const scope = bindingScope(stmt);
    if (scope?.kind !== 'function') return;
    let names = this.redirects.get(scope.node.id);
    if (!names) this.redirects.set(scope.node.id, (names = new Map()));
    for (const n of stmt.namedChildren) if (n?.type === 'identifier') names.set(n.text, how);
  }

  definition(name: SyntaxNode): void {
    const def = parentOf(name)!;
    const scope = bindingScope(def);
    if (!scope) return;
    const start = parentOf(def)?.type === 'decorated_definition' ? parentOf(def)!.startIndex : def.startIndex;
    const type = def.type === 'class_definition' ? 'class' : 'function';
    this.add(scope, name.text, { type, node: def, name, start, end: endOf(def), typed: true, method: type === 'function' && scope.kind === 'class' });
  }

  /**
   * An assignment-like target: names, their tuples and lists, `*rest`, and `self.x` in a method.
   * Tuples are walked in source order with a stack of their own: `((((a,),),),) = x` nests 20,000 deep.
   */
  target(t: SyntaxNode, typed: boolean, final: boolean): void {
    const stack: { t: SyntaxNode; typed: boolean; final: boolean }[] = [{ t, typed, final }];
    for (let top = stack.pop(); top; top = stack.pop()) {
      const n = top.t;
      switch (n.type) {
        case 'identifier': {
          const scope = bindingScope(n);
          if (scope) this.add(scope, n.text, { type: 'variable', node: n, name: n, start: n.startIndex, end: n.endIndex, typed: top.typed, final: top.final });
          break;
        }
        case 'attribute':
          this.member(n, top.typed, top.final);
          break;
        case 'as_pattern_target':
        case 'pattern_list':
        case 'tuple_pattern':
        case 'list_pattern':
        case 'tuple':
        case 'list':
        case 'expression_list':
        case 'parenthesized_expression':
        case 'list_splat_pattern':
        case 'list_splat': {
          const parts = n.namedChildren.filter((c): c is SyntaxNode => !!c);
          for (let i = parts.length - 1; i >= 0; i--) stack.push({ t: parts[i]!, typed: false, final: false });
          break;
        }
        default:
          break;
      }
    }
  }

  /** `self.x = …` (`cls.x` in a class method) in a method binds `x` in the method's class. */
  private member(t: SyntaxNode, typed: boolean, final: boolean): void {
    const object = t.childForFieldName('object');
    const attr = t.childForFieldName('attribute');
    if (object?.type !== 'identifier' || !attr) return;
    const fn = bindingScope(t);
    if (fn?.kind !== 'function') return;
    const cls = bindingScope(fn.node);
    if (cls?.kind !== 'class' || firstParameter(fn.node) !== object.text || decoratedWith(fn.node, 'staticmethod')) return;
    this.add(cls, attr.text, { type: 'variable', node: attr, name: attr, start: attr.startIndex, end: attr.endIndex, typed, final, late: true });
  }

  /** `__slots__ = ('a', 'b')` in a class body declares members `a` and `b` there, at their strings. */
  slots(target: SyntaxNode): void {
    const scope = bindingScope(target);
    const value = parentOf(target)?.childForFieldName('right');
    if (scope?.kind !== 'class' || !value) return;
    const strings = value.type === 'string' ? [value] : value.namedChildren.filter((c): c is SyntaxNode => c?.type === 'string');
    for (const str of strings) {
      const name = str.namedChildren
        .filter((c) => c?.type === 'string_content')
        .map((c) => c!.text)
        .join('');
      // `__dict__` in __slots__ keeps the instance dict; it declares no member
      if (!/^[A-Za-z_]\w*$/.test(name) || name === '__dict__') continue;
      const decl: PyDecl = { type: 'variable', node: str, name: str, start: str.startIndex, end: str.endIndex, typed: false };
      this.add(scope, name, decl);
      // the binder adds the slots when the class body is done, before the methods' `self.x`
      decl.order = scope.node.endIndex;
    }
  }

  assignment(target: SyntaxNode): void {
    const stmt = parentOf(target)!;
    if (target.type === 'identifier' && target.text === '__slots__' && stmt.type === 'assignment') this.slots(target);
    const type = stmt.type === 'assignment' ? stmt.childForFieldName('type') : null;
    const final = isFinalAnnotation(type);
    // pyright: `x: Final = 1` has no declared type (only `Final[int]` does)
    this.target(target, !!type && !final, final);
  }

  parameters(params: SyntaxNode): void {
    const scope = bindingScope(params);
    if (!scope) return;
    for (const p of params.namedChildren) {
      if (!p) continue;
      const name = parameterName(p);
      if (!name) continue;
      const typed = p.type === 'typed_parameter' || p.type === 'typed_default_parameter';
      this.add(scope, name.text, { type: 'param', node: p, name, start: p.startIndex, end: p.endIndex, typed });
    }
  }

  imports(stmt: SyntaxNode): void {
    const scope = bindingScope(stmt);
    if (!scope) return;
    const from = stmt.type === 'import_from_statement';
    for (const n of stmt.childrenForFieldName('name')) {
      if (!n) continue;
      const bound = n.type === 'aliased_import' ? n.childForFieldName('alias') : from ? n : n.namedChildren[0];
      // an import has no declared type to pyright (hasTypeForDeclaration: Alias is false)
      if (bound) this.add(scope, bound.text, { type: 'alias', node: n, name: bound, start: bound.startIndex, end: bound.endIndex, typed: false });
    }
  }

  typeAlias(type: SyntaxNode): void {
    const name = type.namedChildren.find((c) => c?.type === 'identifier') ?? type.namedChildren[0]?.namedChildren.find((c) => c?.type === 'identifier');
    const scope = name ? bindingScope(parentOf(type)!) : undefined;
    if (name && scope) this.add(scope, name.text, { type: 'typeAlias', node: type, name, start: name.startIndex, end: name.endIndex, typed: true });
  }

  /** A capture pattern of a `case` (`case str(s)`, `case [x, *rest]`, `case y if …`); `_` binds nothing. */
  capture(name: SyntaxNode): void {
    const dotted = parentOf(name);
    if (name.text === '_' || (dotted?.type === 'dotted_name' && dotted.namedChildCount !== 1)) return;
    const scope = bindingScope(name);
    if (scope) this.add(scope, name.text, { type: 'variable', node: name, name, start: name.startIndex, end: name.endIndex, typed: false });
  }

  walrus(name: SyntaxNode): void {
    const scope = bindingScope(name, true);
    if (scope) this.add(scope, name.text, { type: 'variable', node: name, name, start: name.startIndex, end: name.endIndex, typed: false });
  }
}

function parameterName(p: SyntaxNode): SyntaxNode | undefined {
  switch (p.type) {
    case 'identifier':
      return p;
    case 'list_splat_pattern':
    case 'dictionary_splat_pattern':
      return p.namedChildren.find((c) => c?.type === 'identifier') ?? undefined;
    case 'typed_parameter': {
      const first = p.namedChildren[0];
      return first ? parameterName(first) : undefined;
    }
    case 'default_parameter':
    case 'typed_default_parameter':
      return p.childForFieldName('name') ?? undefined;
    default:
      return undefined;
  }
}

function firstParameter(fn: SyntaxNode): string | undefined {
  const first = fn.childForFieldName('parameters')?.namedChildren.find((c) => !!c && c.type !== 'comment');
  return first ? parameterName(first)?.text : undefined;
}

function decoratedWith(fn: SyntaxNode, name: string): boolean {
  const decorated = parentOf(fn)?.type === 'decorated_definition' ? parentOf(fn) : undefined;
  return !!decorated?.namedChildren.some((d) => d?.type === 'decorator' && d.text.replace(/^@\s*/, '') === name);
}

/** Every scope's declarations by name, in binding order (a scope's own statements first). */
export function declarationsOfScopes(module: SyntaxNode, captures: readonly SyntaxCapture[]): Map<ScopeKey, Map<string, PyDecl[]>> {
  const b = new Binder(module);
  // `global` / `nonlocal` apply to the whole function, wherever they stand in it
  for (const c of captures) if (c.name === 'global') b.redirect(c.node, c.node.type === 'global_statement' ? 'global' : 'nonlocal');
  for (const c of captures) {
    switch (c.name) {
      case 'def':
        b.definition(c.node);
        break;
      case 'target':
        if (parentOf(c.node)?.type === 'as_pattern') b.target(c.node, false, false);
        else if (parentOf(c.node)?.type === 'for_statement') b.target(c.node, false, false);
        else b.assignment(c.node);
        break;
      case 'walrus':
        b.walrus(c.node);
        break;
      case 'capture':
        b.capture(c.node);
        break;
      case 'import':
        b.imports(c.node);
        break;
      case 'alias_type':
        b.typeAlias(c.node);
        break;
      case 'params':
        b.parameters(c.node);
        break;
      default:
        break;
    }
  }
  for (const names of b.scopes.values())
    for (const list of names.values()) if (list.length > 1) list.sort((x, y) => Number(!!x.late) - Number(!!y.late) || x.order! - y.order!);
  return b.scopes;
}
