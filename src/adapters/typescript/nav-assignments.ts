/**
 * Assignments that declare, for the navigation tree (nav-tree.ts): navigationBar.ts's ES5 class
 * members (`F.x = …` beside `function F`), JavaScript's CommonJS exports (getAssignmentDeclarationKind)
 * and `using` declarations, which the grammar reads as assignments.
 */
import type { SyntaxNode } from '../../syntax/syntax.js';
import { nameText } from './nav-names.js';
import { endOf, FUNCTION_EXPRESSIONS, isUsingDeclaration, NAV_KIND, parentOf } from './nav-nodes.js';
import { NavWalk } from './nav-walk.js';

export abstract class NavAssignments extends NavWalk {
  /**
   * `F.x = …` where F is a function declared beside it: navigationBar.ts makes it a member of F
   * (an ES5 class, even in TypeScript files); any other assignment is walked through.
   */
  protected assignment(n: SyntaxNode): void {
    const left = n.childForFieldName('left');
    if (left && isUsingDeclaration(n)) return this.usingDeclaration(n, left);
    if (this.js && left && this.commonJsExport(n, left)) return;
    const object = left?.type === 'member_expression' ? left.childForFieldName('object') : undefined;
    const property = left?.childForFieldName('property');
    if (object?.type !== 'identifier' || !property || property.text === 'prototype' || !this.functions.has(object.text)) return this.visitAll(n);
    const right = n.childForFieldName('right');
    if (right && FUNCTION_EXPRESSIONS.has(right.type)) {
      this.open(
        {
          name: object.text,
          lspKind: NAV_KIND.class,
          start: n.startIndex,
          end: endOf(n),
          nameAt: object.startIndex,
          children: [],
          merge: `es5 ${object.text}`,
        },
        () => this.visitNode(right.childForFieldName('body')),
      );
      return;
    }
    this.open(
      { name: object.text, lspKind: NAV_KIND.class, start: n.startIndex, end: endOf(n), nameAt: object.startIndex, children: [], merge: `es5 ${object.text}` },
      () =>
        this.open(
          { name: nameText(property), lspKind: NAV_KIND.variable, start: left!.startIndex, end: endOf(n), nameAt: property.startIndex, children: [] },
          () => this.visitNode(right),
        ),
    );
  }

  /**
   * `using x = …` / `await using x = …` (explicit resource management), which the grammar reads as
   * an assignment after a `using` token: a variable declaration to TypeScript, one item per
   * declarator of the statement (`using a = f(), b = g()`: the grammar's sequence after the first).
   */
  private usingDeclaration(n: SyntaxNode, left: SyntaxNode): void {
    const declarators = [n];
    const sequence = parentOf(n)?.type === 'await_expression' ? parentOf(parentOf(n)!) : parentOf(n);
    if (sequence?.type === 'sequence_expression') for (const c of sequence.namedChildren.slice(1)) if (c?.type === 'assignment_expression') declarators.push(c);
    for (const d of declarators) {
      const name = d === n ? left : d.childForFieldName('left');
      if (name?.type !== 'identifier') continue;
      this.steps.then(() =>
        this.open({ name: nameText(name), lspKind: NAV_KIND.variable, start: name.startIndex, end: endOf(d), nameAt: name.startIndex, children: [] }, () =>
          this.initializer(d.childForFieldName('right')),
        ),
      );
    }
  }

  /**
   * JavaScript's `module.exports = …` (an item TypeScript names `<unknown>`) and `exports.x = …` /
   * `module.exports.x = …` (named `x`), each of its right side's kind, with the right side inside.
   */
  private commonJsExport(n: SyntaxNode, left: SyntaxNode): boolean {
    if (left.type !== 'member_expression' && left.type !== 'subscript_expression') return false;
    const object = left.childForFieldName('object');
    const moduleExports = (x: SyntaxNode | null | undefined) =>
      x?.type === 'member_expression' && x.childForFieldName('object')?.text === 'module' && x.childForFieldName('property')?.text === 'exports';
    const right = n.childForFieldName('right');
    const kind = right?.type === 'class' ? NAV_KIND.class : right && FUNCTION_EXPRESSIONS.has(right.type) ? NAV_KIND.function : NAV_KIND.constant;
    if (moduleExports(left)) {
      this.open({ name: '<unknown>', lspKind: kind, start: n.startIndex, end: endOf(n), children: [] }, () => this.visitNode(right));
      return true;
    }
    if (object?.type !== 'identifier' ? !moduleExports(object) : object.text !== 'exports') return false;
    const key = left.type === 'member_expression' ? left.childForFieldName('property') : left.childForFieldName('index');
    if (!key || (left.type === 'subscript_expression' && key.type !== 'string')) return false;
    // exports.x after a declaration of x in the same body (or a second exports.x): TypeScript merges it into that one, no item of its own
    this.open({ name: nameText(key), lspKind: kind, start: n.startIndex, end: endOf(n), nameAt: key.startIndex, children: [], commonJs: true }, () =>
      this.visitNode(right),
    );
    return true;
  }
}
