/**
 * The walk under nav-tree.ts's navigation tree: the container being filled, the pending steps that
 * replace JS recursion (walk-steps.ts), how a node is visited (the subclass's `cases` by node
 * type, else its named descendants), how an item is opened as the container of what follows,
 * initializers, and the variables destructuring patterns declare.
 */
import { MAX_SYNTAX_NESTING, type SyntaxNode, tooDeeplyNested } from '../../syntax/syntax.js';
import { WalkSteps } from '../../syntax/walk-steps.js';
import { isIdentifierNode, nameText } from './nav-names.js';
import {
  CLASS_EXPRESSIONS,
  declarationStart,
  endOf,
  FUNCTION_EXPRESSIONS,
  knowParent,
  mergeable,
  NAV_KIND,
  type NavItem,
  parentOf,
  PATTERNS,
  readingText,
} from './nav-nodes.js';

const ANONYMOUS = 0;
const HANDLED = 1;
const WALKED = 2;
/** A type id the grammar does not list: asked of the node itself. */
const UNKNOWN = 3;
/**
 * Named nodes that hold no declaration of any kind (tokens, or strings and regexes made of
 * tokens): walked past like anonymous ones, without asking the tree for a first child each time.
 */
const BARREN = new Set([
  'identifier',
  'property_identifier',
  'type_identifier',
  'private_property_identifier',
  'statement_identifier',
  'number',
  'string',
  'string_fragment',
  'escape_sequence',
  'regex',
  'regex_pattern',
  'regex_flags',
  'comment',
  'this',
  'super',
  'true',
  'false',
  'null',
  'undefined',
  'predefined_type',
]);
/** Node roles per grammar and per handler table (a builder's `cases`), computed once. */
const ROLES = new WeakMap<object, Map<string, Uint8Array>>();

export abstract class NavWalk {
  readonly root: NavItem = { name: '', lspKind: 0, start: 0, end: 0, children: [] };

  /** `js`: a JavaScript file, where CommonJS exports and prototype assignments declare (TypeScript's getAssignmentDeclarationKind). */
  constructor(protected readonly js = false) {}

  protected parent = this.root;
  /** How deep `parent` is among the items (the root's children are at 1). */
  protected depth = 0;
  /** Functions declared in the current item (navigationBar.ts trackedEs5Classes): `F.x = …` then belongs to F. */
  protected functions = new Set<string>();

  /** The walk's pending steps: what a recursive visit would do after the call it is in. */
  protected readonly steps = new WalkSteps();

  /** The items of a tree parsed from `text`. */
  build(program: SyntaxNode, text: string): NavItem[] {
    readingText(program.tree, text);
    this.steps.run(() => this.visitAll(program));
    return this.root.children;
  }

  /** navigationBar.ts addChildrenRecursively's cases, by tree-sitter node type (the subclass's handlers). */
  protected abstract readonly cases: Map<string, (n: SyntaxNode) => void>;

  /** Visits `n` after the running step and what it asked for before (a step of its own: no recursion). */
  protected visit(n: SyntaxNode): void {
    this.steps.then(() => {
      const handle = this.cases.get(n.type);
      if (handle) handle(n);
      else this.visitAll(n);
    });
  }

  /**
   * Every named descendant, in order, handing the ones addChildrenRecursively handles to visit
   * (forEachChild): the cursor walks through the others without recursion, the handled ones are
   * visited in order after this step.
   */
  protected visitAll(n: SyntaxNode): void {
    const roles = this.roles(n);
    const cursor = n.walk();
    try {
      if (!cursor.gotoFirstChild()) return;
      let depth = 1;
      for (;;) {
        let descend = false;
        // one call into the module per node (its type id) instead of two (named? then its type's name)
        const id = cursor.nodeTypeId;
        let role = id < roles.length ? roles[id]! : UNKNOWN;
        if (role === UNKNOWN) role = cursor.nodeIsNamed ? (this.cases.has(cursor.nodeType) ? HANDLED : WALKED) : ANONYMOUS;
        if (role === HANDLED) {
          const c = cursor.currentNode;
          if (depth === 1) knowParent(c, n);
          this.visit(c);
        } else if (role === WALKED) descend = true;
        if (descend && cursor.gotoFirstChild()) {
          depth++;
          continue;
        }
        while (!cursor.gotoNextSibling()) {
          if (--depth === 0 || !cursor.gotoParent()) return;
        }
      }
    } finally {
      cursor.delete();
    }
  }

  private roleTable: { language: object; roles: Uint8Array } | undefined;

  /** By node type id of `n`'s grammar: a named node of a handled type, another named node, or an anonymous one (ERROR, id 65535, is named). */
  private roles(n: SyntaxNode): Uint8Array {
    const language = n.tree.language;
    if (this.roleTable?.language === language) return this.roleTable.roles;
    let byCases = ROLES.get(language);
    if (!byCases) ROLES.set(language, (byCases = new Map()));
    const key = [...this.cases.keys()].join(' ');
    let roles = byCases.get(key);
    if (!roles) {
      const types = language.types;
      roles = new Uint8Array(Math.max(types.length, 65536));
      for (let id = 0; id < roles.length; id++) {
        const type = id < types.length ? types[id] : id === 65535 ? 'ERROR' : undefined;
        if (type === undefined) roles[id] = UNKNOWN;
        else if (!language.nodeTypeIsNamed(id) || (BARREN.has(type) && !this.cases.has(type))) roles[id] = ANONYMOUS;
        else roles[id] = this.cases.has(type || 'ERROR') ? HANDLED : WALKED;
      }
      byCases.set(key, roles);
    }
    this.roleTable = { language, roles };
    return roles;
  }

  /** Visits a node that may be absent. */
  protected visitNode(n: SyntaxNode | null | undefined): void {
    if (n) this.visit(n);
  }

  // ---- items --------------------------------------------------------------------------------

  /**
   * Adds `item` to the current container; then, in steps, makes it the container while `children`
   * runs (with the steps it asks for), and restores the outer container after them. What the
   * caller does after open() runs before the children: it may only add to the outer container.
   */
  protected open(item: NavItem, children: () => void): void {
    const depth = this.depth + 1;
    if (depth > MAX_SYNTAX_NESTING) throw tooDeeplyNested();
    this.parent.children.push(item);
    const outer = this.parent;
    const outerFunctions = this.functions;
    this.steps.then(() => {
      this.parent = item;
      this.depth = depth;
      this.functions = new Set();
      children();
    });
    this.steps.then(() => {
      this.parent = outer;
      this.depth = depth - 1;
      this.functions = outerFunctions;
    });
  }

  protected leaf(n: SyntaxNode, lspKind: number, end: number, merge?: string): void {
    const name = n.childForFieldName('name');
    const item: NavItem = { name: name ? nameText(name) : '<unknown>', lspKind, start: declarationStart(n), end, children: [] };
    if (name) item.nameAt = name.startIndex;
    if (merge) Object.assign(item, mergeable(n, merge));
    this.parent.children.push(item);
  }

  /** A class or type member's end: TypeScript's member takes the `;` (a type member also the `,`) after it; an object literal's does not. */
  protected memberEnd(n: SyntaxNode): number {
    const next = n.nextSibling;
    if (!next || next.isNamed || parentOf(n)?.type === 'object') return endOf(n);
    return next.type === ';' || (next.type === ',' && parentOf(n)?.type !== 'class_body') ? next.endIndex : endOf(n);
  }

  /** A class body's members (the subclass reads them). */
  protected abstract members(body: SyntaxNode | null): void;

  // ---- initializers and destructuring patterns ---------------------------------------------------

  /** navigationBar.ts addNodeWithRecursiveInitializer: a function or class initializer's own children, else the initializer. */
  protected initializer(value: SyntaxNode | null): void {
    if (!value) return;
    if (FUNCTION_EXPRESSIONS.has(value.type) || CLASS_EXPRESSIONS.has(value.type)) this.expressionChildren(value);
    else this.visit(value);
  }

  /** forEachChild of a function or class expression: its parameters, types and body, or its members. */
  protected expressionChildren(value: SyntaxNode): void {
    if (CLASS_EXPRESSIONS.has(value.type)) this.members(value.childForFieldName('body'));
    else this.visitAll(value);
  }

  protected pattern(p: SyntaxNode, lspKind: number): void {
    for (const e of p.namedChildren) if (e) this.steps.then(() => this.patternElement(e, lspKind));
  }

  protected patternElement(e: SyntaxNode, lspKind: number): void {
    switch (e.type) {
      case 'identifier':
      case 'shorthand_property_identifier_pattern':
        this.binding(e, e, lspKind, null);
        break;
      case 'pair_pattern':
        this.bindingTarget(e, e.childForFieldName('value'), lspKind);
        break;
      case 'object_assignment_pattern':
      case 'assignment_pattern':
        this.bindingTarget(e, e.childForFieldName('left'), lspKind, e.childForFieldName('right'));
        break;
      case 'rest_pattern':
        this.bindingTarget(e, e.namedChildren[0] ?? null, lspKind);
        break;
      case 'object_pattern':
      case 'array_pattern':
        this.pattern(e, lspKind);
        break;
      default:
        break;
    }
  }

  protected bindingTarget(element: SyntaxNode, target: SyntaxNode | null, lspKind: number, init: SyntaxNode | null = null): void {
    // `a = 1 = …` defaults inside defaults: the innermost left side, with its own default
    while (target?.type === 'assignment_pattern') {
      init = target.childForFieldName('right');
      target = target.childForFieldName('left');
    }
    if (!target) return;
    if (PATTERNS.has(target.type)) this.pattern(target, lspKind);
    else if (isIdentifierNode(target)) this.binding(element, target, lspKind, init);
  }

  protected binding(element: SyntaxNode, name: SyntaxNode, lspKind: number, init: SyntaxNode | null): void {
    this.open({ name: nameText(name), lspKind, start: element.startIndex, end: element.endIndex, nameAt: name.startIndex, children: [] }, () =>
      this.initializer(init),
    );
  }

  /** `({ a, b: c, d = 1, ...e } = x)`: an object literal's shorthand, property and spread assignments to TypeScript. */
  protected assignmentPattern(p: SyntaxNode): void {
    if (p.type === 'array_pattern') return this.visitAll(p);
    for (const e of p.namedChildren) if (e) this.steps.then(() => this.assignmentElement(e));
  }

  protected assignmentElement(e: SyntaxNode): void {
    const key =
      e.type === 'pair_pattern'
        ? e.childForFieldName('key')
        : e.type === 'object_assignment_pattern'
          ? e.childForFieldName('left')
          : e.type === 'rest_pattern'
            ? e.namedChildren[0]
            : e;
    if (
      e.type === 'shorthand_property_identifier_pattern' ||
      ((e.type === 'pair_pattern' || e.type === 'object_assignment_pattern') && key) ||
      (e.type === 'rest_pattern' && key?.type === 'identifier')
    ) {
      const value = e.type === 'pair_pattern' ? e.childForFieldName('value') : e.type === 'object_assignment_pattern' ? e.childForFieldName('right') : null;
      this.open({ name: nameText(key!), lspKind: NAV_KIND.property, start: e.startIndex, end: endOf(e), nameAt: key!.startIndex, children: [] }, () =>
        this.visitNode(value),
      );
    } else this.visit(e);
  }
}
