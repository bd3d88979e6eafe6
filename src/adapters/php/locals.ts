/**
 * The variables intelephense lists under a PHP function (declarations.ts): its parameters, then
 * each variable where it is assigned while not yet known on that path — a parameter, a `use`d
 * variable or an earlier assignment makes it known; an assignment in each branch of an `if`
 * (`elseif`, `else`, `case`) is listed once per branch, each branch starting from what was known
 * before it — plus every foreach key and value and every catch variable, and each closure as a
 * `Closure` function with its own parameters, variables and by-reference `use` variables the
 * enclosing function does not know.
 */
import type { SyntaxSymbol } from '../language-profile.js';
import { MAX_TREE_DEPTH, NestingGuard, type SyntaxNode } from '../../syntax/syntax.js';
import { phpSymbol } from './symbols.js';

/** A class body's members (declarations.ts), for classes declared inside a function (`new class { … }`). */
export type MembersOf = (body: SyntaxNode | null) => SyntaxSymbol[];

const VARIABLE = 13;
const FUNCTION = 12;
const CLOSURES = new Set(['anonymous_function', 'anonymous_function_creation_expression', 'arrow_function']);
/** Declarations of their own, never walked into for a function's variables. */
const NESTED = new Set(['function_definition', 'class_declaration', 'interface_declaration', 'trait_declaration', 'enum_declaration', 'method_declaration']);
const ASSIGNMENTS = new Set(['assignment_expression', 'reference_assignment_expression', 'augmented_assignment_expression']);
const PARAMETERS = new Set(['simple_parameter', 'variadic_parameter', 'property_promotion_parameter']);

/**
 * Statements whose bodies run on separate paths: what one branch assigns is not known in the next
 * (their condition runs before, on the path itself). A try's catch clauses know what its body
 * assigned, to intelephense.
 */
const BRANCHING = new Set(['if_statement', 'switch_statement', 'match_expression', 'conditional_expression']);
const CONDITIONS = new Set(['condition', 'parenthesized_expression']);

/** The walk below recurses per syntax level (closures and classes inside start walks of their own): bounded for every walk at once. */
const nesting = new NestingGuard(MAX_TREE_DEPTH);

class Locals {
  readonly out: SyntaxSymbol[] = [];
  /** Variables known on the current path. */
  known: Set<string>;

  constructor(
    readonly members: MembersOf,
    known: Iterable<string> = [],
  ) {
    this.known = new Set(known);
  }

  /** `always`: listed even when known (foreach bindings and catch variables are, to intelephense). */
  declare(name: SyntaxNode, start = name.startIndex, end = name.endIndex, always = false): void {
    if (name.type !== 'variable_name' || (!always && this.known.has(name.text))) return;
    this.known.add(name.text);
    this.out.push(phpSymbol(name.text, VARIABLE, start, end, name.startIndex));
  }

  /** A destructuring or assignment target: `$x`, `[$a, 'k' => $b]`, `list($c)`, `$arr[] =` (its array). */
  target(t: SyntaxNode | null, always = false): void {
    nesting.enter();
    try {
      this.targetOf(t, always);
    } finally {
      nesting.leave();
    }
  }

  private targetOf(t: SyntaxNode | null, always: boolean): void {
    if (!t) return;
    if (t.type === 'variable_name') return this.declare(t, t.startIndex, t.endIndex, always);
    if (t.type === 'subscript_expression') return this.target(t.namedChildren[0] ?? null, always);
    if (t.type === 'by_ref') return this.target(t.namedChildren[0] ?? null, always);
    if (t.type === 'list_literal' || t.type === 'array_creation_expression' || t.type === 'array_element_initializer' || t.type === 'pair') {
      for (const c of t.namedChildren) if (c) this.target(c.type === 'pair' ? (c.namedChildren[1] ?? null) : c, always);
    }
  }

  /** Each branch of a branching statement starts from what was known before it; afterwards all they assigned is known. */
  private branches(c: SyntaxNode): void {
    const condition = c.childForFieldName('condition') ?? c.namedChildren.find((x) => !!x && CONDITIONS.has(x.type)) ?? null;
    if (condition) this.walkNodes([condition]);
    const before = this.known;
    const after = new Set(before);
    for (const part of c.namedChildren) {
      if (!part || part.id === condition?.id) continue;
      this.known = new Set(before);
      this.walkNodes([part]);
      for (const v of this.known) after.add(v);
    }
    this.known = after;
  }

  /** Every node below `n` in source order (not into nested declarations), declaring what assigns. */
  walk(n: SyntaxNode): void {
    this.walkNodes(n.namedChildren);
  }

  walkNodes(nodes: (SyntaxNode | null)[]): void {
    nesting.enter();
    try {
      this.walkList(nodes);
    } finally {
      nesting.leave();
    }
  }

  private walkList(nodes: (SyntaxNode | null)[]): void {
    for (const c of nodes) {
      if (!c || NESTED.has(c.type)) continue;
      if (CLOSURES.has(c.type)) {
        this.out.push(closure(c, this));
        continue;
      }
      if (c.type === 'anonymous_class') {
        this.out.push(anonymousClass(c, this.members));
        continue;
      }
      this.visit(c);
    }
  }

  private visit(c: SyntaxNode): void {
    if (ASSIGNMENTS.has(c.type)) {
      // the right side runs first: `$a = f($a = g())` declares the inner `$a`
      this.walkNodes([c.childForFieldName('right')]);
      this.target(c.childForFieldName('left'));
      return;
    }
    if (BRANCHING.has(c.type)) return this.branches(c);
    switch (c.type) {
      case 'foreach_statement':
        return this.foreach(c);
      case 'catch_clause': {
        const name = c.childForFieldName('name');
        if (name) this.declare(name, c.startIndex, c.endIndex, true);
        return this.walk(c);
      }
      case 'static_variable_declaration': {
        const name = c.childForFieldName('name');
        if (name) this.declare(name, c.startIndex, c.endIndex);
        return this.walk(c);
      }
      case 'global_declaration':
        for (const v of c.namedChildren) if (v) this.declare(v);
        return;
      default:
        return this.walk(c);
    }
  }

  private foreach(c: SyntaxNode): void {
    const parts = c.namedChildren.filter((x): x is SyntaxNode => !!x && x.type !== 'comment');
    // foreach (expr as [key =>] value) body: the expression first, then the key and value, then the body
    const [expr, binding, ...rest] = parts;
    if (expr) this.visit(expr);
    if (binding?.type === 'pair') {
      this.target(binding.namedChildren[0] ?? null, true);
      this.target(binding.namedChildren[1] ?? null, true);
    } else this.target(binding ?? null, true);
    for (const r of rest) this.visit(r);
  }
}

function parameters(fn: SyntaxNode): SyntaxSymbol[] {
  const out: SyntaxSymbol[] = [];
  for (const p of fn.childForFieldName('parameters')?.namedChildren ?? []) {
    if (!p || !PARAMETERS.has(p.type)) continue;
    const name = p.childForFieldName('name');
    if (name) out.push(phpSymbol(name.text, VARIABLE, p.startIndex, p.endIndex, name.startIndex));
  }
  return out;
}

function closure(c: SyntaxNode, outer: Locals): SyntaxSymbol {
  const params = parameters(c);
  const locals = new Locals(outer.members, params.map((p) => p.name));
  const use = c.namedChildren.find((x) => x?.type === 'anonymous_function_use_clause');
  // `use (&$y)` creates $y when the enclosing function does not know it; `use ($x)` only reads it
  for (const v of use?.namedChildren ?? []) {
    const name = v?.type === 'by_ref' ? v.namedChildren[0] : v;
    if (name?.type !== 'variable_name') continue;
    if (v!.type === 'by_ref' && !outer.known.has(name.text)) {
      locals.declare(name);
      // ...and in the enclosing function too, where it is not listed again
      outer.known.add(name.text);
    } else locals.known.add(name.text);
  }
  const body = c.childForFieldName('body');
  // an arrow function's body is one expression, itself perhaps a closure or an assignment
  if (body) locals.walkNodes(c.type === 'arrow_function' ? [body] : body.namedChildren);
  // selected at `function` / `fn`, after a `static`
  const keyword = c.children.find((x) => x?.type === 'function' || x?.type === 'fn');
  return phpSymbol('Closure', FUNCTION, c.startIndex, c.endIndex, keyword?.startIndex ?? c.startIndex, [...params, ...locals.out]);
}

/** `new class … { … }`: a class named `class`, from its `class` keyword, with its members. */
function anonymousClass(c: SyntaxNode, membersOf: MembersOf): SyntaxSymbol {
  const keyword = c.children.find((x) => x?.type === 'class');
  const start = keyword?.startIndex ?? c.startIndex;
  return phpSymbol('class', 5, start, c.endIndex, start, membersOf(c.childForFieldName('body')));
}

/** A function's (or the file's top level's) parameters, variables and closures. */
export function functionLocals(fn: SyntaxNode, membersOf: MembersOf): SyntaxSymbol[] {
  const locals = new Locals(membersOf);
  if (fn.type === 'program') {
    for (const s of fn.namedChildren) {
      if (s?.type === 'namespace_definition') locals.walkNodes(s.childForFieldName('body')?.namedChildren ?? []);
      else locals.walkNodes([s]);
    }
    return locals.out;
  }
  const params = parameters(fn);
  const locals2 = new Locals(membersOf, params.map((p) => p.name));
  const body = fn.childForFieldName('body');
  if (body) locals2.walk(body);
  return [...params, ...locals2.out];
}
