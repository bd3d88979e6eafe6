/**
 * The variables intelephense lists under a PHP function (declarations.ts): its parameters, then
 * each variable where it is assigned while not yet known on that path — a parameter, a `use`d
 * variable or an earlier assignment makes it known; an assignment in each branch of an `if`
 * (`elseif`, `else`, `case`) is listed once per branch, each branch starting from what was known
 * before it — plus every foreach key and value and every catch variable, and each closure as a
 * `Closure` function with its own parameters, variables and by-reference `use` variables the
 * enclosing function does not know.
 *
 * The walk runs in steps (walk-steps.ts), in the order of a recursive walk but without JS recursion,
 * so a file nested 100,000 deep costs heap, not stack: a symbol is listed when its walk starts, its
 * children array filled by the steps after it; a branch's bookkeeping, an assignment's target, the
 * next statement are steps of their own after the walks they follow.
 */
import type { SyntaxNode } from '../../syntax/syntax.js';
import type { WalkSteps } from '../../syntax/walk-steps.js';
import type { SyntaxSymbol } from '../language-profile.js';
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

class Locals {
  /** Variables known on the current path. */
  known: Set<string>;

  /** `out`: where the symbols go (a closure's or function's children, after its parameters). */
  constructor(
    readonly steps: WalkSteps,
    readonly members: MembersOf,
    known: Iterable<string> = [],
    readonly out: SyntaxSymbol[] = [],
  ) {
    this.known = new Set(known);
  }

  /** `always`: listed even when known (foreach bindings and catch variables are, to intelephense). */
  declare(name: SyntaxNode, start = name.startIndex, end = name.endIndex, always = false): void {
    if (name.type !== 'variable_name' || (!always && this.known.has(name.text))) return;
    this.known.add(name.text);
    this.out.push(phpSymbol(name.text, VARIABLE, start, end, name.startIndex));
  }

  /**
   * A destructuring or assignment target: `$x`, `[$a, 'k' => $b]`, `list($c)`, `$arr[] =` (its
   * array); its variables in source order, walked with a stack of its own (targets hold no walks).
   */
  target(t: SyntaxNode | null, always = false): void {
    const stack = [t];
    for (let n = stack.pop(); n !== undefined; n = stack.pop()) {
      if (!n) continue;
      if (n.type === 'variable_name') this.declare(n, n.startIndex, n.endIndex, always);
      else if (n.type === 'subscript_expression' || n.type === 'by_ref') stack.push(n.namedChildren[0] ?? null);
      else if (n.type === 'list_literal' || n.type === 'array_creation_expression' || n.type === 'array_element_initializer' || n.type === 'pair') {
        const parts = n.namedChildren.filter((c): c is SyntaxNode => !!c).map((c) => (c.type === 'pair' ? (c.namedChildren[1] ?? null) : c));
        for (let i = parts.length - 1; i >= 0; i--) stack.push(parts[i]!);
      }
    }
  }

  /** Each branch of a branching statement starts from what was known before it; afterwards all they assigned is known. */
  private branches(c: SyntaxNode): void {
    const condition = c.childForFieldName('condition') ?? c.namedChildren.find((x) => !!x && CONDITIONS.has(x.type)) ?? null;
    if (condition) this.walkNodes([condition]);
    // what was known after the condition, and what any branch assigned: set by the steps below, in order
    let before = this.known;
    let after = before;
    this.steps.then(() => {
      before = this.known;
      after = new Set(before);
    });
    for (const part of c.namedChildren) {
      if (!part || part.id === condition?.id) continue;
      this.steps.then(() => {
        this.known = new Set(before);
      });
      this.walkNodes([part]);
      this.steps.then(() => {
        for (const v of this.known) after.add(v);
      });
    }
    this.steps.then(() => {
      this.known = after;
    });
  }

  /** Every node below `n` in source order (not into nested declarations), declaring what assigns. */
  walk(n: SyntaxNode): void {
    this.walkNodes(n.namedChildren);
  }

  /** Walks each node in a step of its own, in order, after the running step. */
  walkNodes(nodes: (SyntaxNode | null)[]): void {
    for (const c of nodes) if (c && !NESTED.has(c.type)) this.steps.then(() => this.walkOne(c));
  }

  private walkOne(c: SyntaxNode): void {
    if (CLOSURES.has(c.type)) this.out.push(closure(c, this));
    else if (c.type === 'anonymous_class') this.out.push(anonymousClass(c, this.members));
    else this.visit(c);
  }

  private visit(c: SyntaxNode): void {
    if (ASSIGNMENTS.has(c.type)) {
      // the right side runs first: `$a = f($a = g())` declares the inner `$a`
      this.walkNodes([c.childForFieldName('right')]);
      this.steps.then(() => this.target(c.childForFieldName('left')));
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
    if (expr) this.steps.then(() => this.visit(expr));
    this.steps.then(() => {
      if (binding?.type === 'pair') {
        this.target(binding.namedChildren[0] ?? null, true);
        this.target(binding.namedChildren[1] ?? null, true);
      } else this.target(binding ?? null, true);
    });
    for (const r of rest) this.steps.then(() => this.visit(r));
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

/** The closure's symbol, its children (parameters, then what its body declares) filled by the steps after the running one. */
function closure(c: SyntaxNode, outer: Locals): SyntaxSymbol {
  const params = parameters(c);
  const locals = new Locals(
    outer.steps,
    outer.members,
    params.map((p) => p.name),
    [...params],
  );
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
  return phpSymbol('Closure', FUNCTION, c.startIndex, c.endIndex, keyword?.startIndex ?? c.startIndex, locals.out);
}

/** `new class … { … }`: a class named `class`, from its `class` keyword, with its members. */
function anonymousClass(c: SyntaxNode, membersOf: MembersOf): SyntaxSymbol {
  const keyword = c.children.find((x) => x?.type === 'class');
  const start = keyword?.startIndex ?? c.startIndex;
  return phpSymbol('class', 5, start, c.endIndex, start, membersOf(c.childForFieldName('body')));
}

/**
 * A function's (or the file's top level's) parameters, variables and closures: the array is
 * returned at once and filled by the walk's steps (`steps`, run by the caller), after the running one.
 */
export function functionLocals(steps: WalkSteps, fn: SyntaxNode, membersOf: MembersOf): SyntaxSymbol[] {
  if (fn.type === 'program') {
    const locals = new Locals(steps, membersOf);
    for (const s of fn.namedChildren) {
      if (s?.type === 'namespace_definition') locals.walkNodes(s.childForFieldName('body')?.namedChildren ?? []);
      else locals.walkNodes([s]);
    }
    return locals.out;
  }
  const params = parameters(fn);
  const locals = new Locals(
    steps,
    membersOf,
    params.map((p) => p.name),
    [...params],
  );
  const body = fn.childForFieldName('body');
  if (body) locals.walk(body);
  return locals.out;
}
