/**
 * An attribute on an expression inside parentheses (`(#[rustc_box] Box::new(x)).into()`, as the
 * standard library writes its box syntax) is no expression to tree-sitter's Rust grammar, which reads
 * an attribute there only before an element of a tuple: error recovery then keeps the function open
 * to the end of its `impl`, and every method after it becomes a local of that function (the rest of
 * `impl Box<T>` lost). An attribute declares nothing, so read as blank it leaves an expression the
 * grammar reads, and the declarations around it where they are. Found only in erroneous expressions:
 * a file that parses is left as it is.
 */
import type { SyntaxNode } from '../../syntax/syntax.js';
import type { TextRepair } from '../query-declarations.js';

/** Nodes that hold items or statements: an attribute there belongs to the declaration after it and stays. */
const ITEM_HOLDERS = new Set(['source_file', 'declaration_list', 'block', 'field_declaration_list', 'enum_variant_list', 'match_block', 'match_arm']);

/** The attributes inside an expression that holds an error: a walk with an explicit stack, into erroneous nodes only. */
function expressionAttributes(root: SyntaxNode): Array<readonly [number, number]> {
  const spans: Array<readonly [number, number]> = [];
  if (!root.hasError) return spans;
  const stack: SyntaxNode[] = [root];
  while (stack.length) {
    const n = stack.pop()!;
    if (!n.hasError) continue;
    for (let i = n.childCount - 1; i >= 0; i--) {
      const c = n.child(i);
      if (!c) continue;
      if (c.type === 'attribute_item' && !ITEM_HOLDERS.has(n.type) && n.type !== 'ERROR') spans.push([c.startIndex, c.endIndex]);
      else stack.push(c);
    }
  }
  return spans;
}

export const rustRepair: TextRepair = { grammar: 'rust', spans: expressionAttributes };
