/**
 * What pyright's binder declares nothing in, and the order it binds in, for the syntax catalog:
 * code after a `raise`, `return`, `continue` or `break` of its block, and branches of an `if` whose
 * condition is known without running anything (pyright's static conditions: `sys.platform ==`,
 * `os.name ==`, `TYPE_CHECKING`, `True`/`False`, `not`/`and`/`or` of them; not `startswith`) are unreachable; a `try`'s
 * `else` suite is bound right after its body, before the `except` clauses. The platform is this
 * host's, as it is for the pyright that lspgate starts; `sys.version_info` tests are left unknown.
 */
import { parentOf, type SyntaxNode } from '../../syntax/syntax.js';

const PLATFORM = process.platform;
const OS_NAME = PLATFORM === 'win32' ? 'nt' : 'posix';
const EXITS = new Set(['raise_statement', 'return_statement', 'continue_statement', 'break_statement']);

function literal(n: SyntaxNode | null): string | undefined {
  if (n?.type !== 'string') return undefined;
  return n.namedChildren
    .filter((c) => c?.type === 'string_content')
    .map((c) => c!.text)
    .join('');
}

/**
 * true / false when pyright knows the condition statically on this host, undefined otherwise.
 * Evaluated with stacks of its own (operands first, then their operator): `not not … x` and
 * parentheses nest 20,000 deep in a hostile file.
 */
export function staticCondition(n: SyntaxNode | null): boolean | undefined {
  const work: { node: SyntaxNode | null; operands?: true }[] = [{ node: n }];
  const values: (boolean | undefined)[] = [];
  for (let top = work.pop(); top; top = work.pop()) {
    const node = top.node;
    if (top.operands) values.push(operator(node!, values));
    else if (!node) values.push(undefined);
    else if (node.type === 'parenthesized_expression') work.push({ node: node.namedChildren[0] ?? null });
    else if (node.type === 'not_operator') work.push({ node, operands: true }, { node: node.childForFieldName('argument') });
    else if (node.type === 'boolean_operator')
      work.push({ node, operands: true }, { node: node.childForFieldName('right') }, { node: node.childForFieldName('left') });
    else values.push(operand(node));
  }
  return values.pop();
}

/** A `not` or `and`/`or` of the values on top of `values` (its operands', left below right), taken off. */
function operator(n: SyntaxNode, values: (boolean | undefined)[]): boolean | undefined {
  if (n.type === 'not_operator') {
    const v = values.pop();
    return v === undefined ? undefined : !v;
  }
  const b = values.pop();
  const a = values.pop();
  const and = n.children.some((c) => c?.type === 'and');
  if (and) return a === false || b === false ? false : a === true && b === true ? true : undefined;
  return a === true || b === true ? true : a === false && b === false ? false : undefined;
}

/** A condition with no condition inside: a literal, `TYPE_CHECKING`, a platform comparison. */
function operand(n: SyntaxNode): boolean | undefined {
  switch (n.type) {
    case 'true':
      return true;
    case 'false':
      return false;
    case 'identifier':
    case 'attribute':
      return n.text === 'TYPE_CHECKING' || n.text === 'typing.TYPE_CHECKING' ? true : undefined;
    case 'comparison_operator':
      return comparison(n);
    default:
      return undefined;
  }
}

function comparison(n: SyntaxNode): boolean | undefined {
  const [left, right] = n.namedChildren;
  const op = n.children.find((c) => c?.type === '==' || c?.type === '!=')?.type;
  const value = literal(right ?? null);
  if (!op || value === undefined || n.namedChildCount !== 2) return undefined;
  const actual = left?.text === 'sys.platform' ? PLATFORM : left?.text === 'os.name' ? OS_NAME : undefined;
  if (actual === undefined) return undefined;
  return (actual === value) === (op === '==');
}

/** The branches of an if statement, each with its condition (undefined for `else`) and body. */
function branches(stmt: SyntaxNode): { condition: SyntaxNode | null; body: SyntaxNode | null }[] {
  const out = [{ condition: stmt.childForFieldName('condition'), body: stmt.childForFieldName('consequence') }];
  for (const alt of stmt.childrenForFieldName('alternative')) {
    if (alt?.type === 'elif_clause') out.push({ condition: alt.childForFieldName('condition'), body: alt.childForFieldName('consequence') });
    else if (alt?.type === 'else_clause') out.push({ condition: null, body: alt.childForFieldName('body') });
  }
  return out;
}

/**
 * Which branch bodies can run — those before the first statically true condition, less the
 * statically false ones — and whether one of them surely runs (an `else`, or a true condition).
 */
function liveBranches(stmt: SyntaxNode): { live: (SyntaxNode | null)[]; certain: boolean } {
  const live: (SyntaxNode | null)[] = [];
  for (const b of branches(stmt)) {
    const v = b.condition ? staticCondition(b.condition) : true;
    if (v !== false) live.push(b.body);
    if (v === true) return { live, certain: true };
  }
  return { live, certain: false };
}

function blockExits(block: SyntaxNode | null): boolean {
  return !!block && block.namedChildren.some((s) => !!s && statementExits(s));
}

function statementExits(s: SyntaxNode): boolean {
  if (EXITS.has(s.type)) return true;
  if (s.type !== 'if_statement') return false;
  const { live, certain } = liveBranches(s);
  return certain && live.length > 0 && live.every((b) => blockExits(b));
}

export class Reachability {
  private readonly cutoff = new Map<number, number>();

  /** reaches' answers by the node the walk up starts from: a file's bindings share their ancestors. */
  private readonly reachedFrom = new Map<number, boolean>();

  /** Whether pyright's binder reaches `n` (a binding site) from the start of its file. */
  reaches(n: SyntaxNode): boolean {
    const walked: number[] = [];
    let reached = true;
    let child = n;
    for (let p = parentOf(n); p; child = p, p = parentOf(p)) {
      const memo = this.reachedFrom.get(child.id);
      if (memo !== undefined) {
        reached = memo;
        break;
      }
      walked.push(child.id);
      if (!this.stepReaches(p, child)) {
        reached = false;
        break;
      }
    }
    for (const id of walked) this.reachedFrom.set(id, reached);
    return reached;
  }

  private stepReaches(p: SyntaxNode, child: SyntaxNode): boolean {
    const type = p.type;
    if ((type === 'block' || type === 'module') && child.startIndex >= this.cutoffOf(p)) return false;
    if (type === 'if_statement' || type === 'elif_clause' || type === 'else_clause') {
      const stmt = type === 'if_statement' ? p : parentOf(p);
      if (stmt?.type === 'if_statement' && !this.branchLive(stmt, child, p)) return false;
    }
    return true;
  }

  private branchLive(stmt: SyntaxNode, child: SyntaxNode, at: SyntaxNode): boolean {
    const body =
      at.type === 'if_statement'
        ? at.childForFieldName('consequence')?.id === child.id
          ? child
          : undefined
        : at.type === 'elif_clause'
          ? at.childForFieldName('consequence')
          : at.childForFieldName('body');
    if (!body || body.id !== child.id) return true;
    return liveBranches(stmt).live.some((b) => b?.id === body.id);
  }

  /** Where the statements of a block stop being reachable (after one that always exits). */
  private cutoffOf(block: SyntaxNode): number {
    let at = this.cutoff.get(block.id);
    if (at === undefined) {
      at = Infinity;
      for (const s of block.namedChildren) {
        if (s && statementExits(s)) {
          at = s.endIndex;
          break;
        }
      }
      this.cutoff.set(block.id, at);
    }
    return at;
  }
}

/** pyright's binding order of a node: its position, with a try's `else` suite moved before its `except` clauses. */
export function bindingOrder(n: SyntaxNode): number {
  let key = n.startIndex;
  for (let p = parentOf(n), child = n; p; child = p, p = parentOf(p)) {
    if (p.type !== 'try_statement' || child.type !== 'else_clause') continue;
    const firstExcept = p.namedChildren.find((c) => c?.type === 'except_clause' || c?.type === 'except_group_clause');
    if (!firstExcept) continue;
    const span = child.endIndex - child.startIndex + 1;
    key = firstExcept.startIndex - 1 + (key - child.startIndex - span) / span;
  }
  return key;
}
