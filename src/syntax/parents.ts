/**
 * A node's parent, remembered for the tree being read. tree-sitter keeps no parent links:
 * `node.parent` (ts_node_parent) walks down from the root to the node each time, scanning every
 * level's children, so a reader asking each binding of a file for its chain of ancestors paid
 * depth × width per step, again and again for the same ancestors — 15 of the Python stdlib's 22
 * reading CPU-seconds. Node ids are unique within a tree, so the answer is kept by id until a node
 * of another tree is asked about (a worker reads one tree at a time).
 */
import type { Node } from '@vscode/tree-sitter-wasm';

let tree: unknown;
const parents = new Map<number, Node | null>();

/** `n.parent`, once per node of the tree being read. */
export function parentOf(n: Node): Node | null {
  if (n.tree !== tree) {
    parents.clear();
    tree = n.tree;
  }
  let p = parents.get(n.id);
  if (p === undefined) {
    p = n.parent;
    parents.set(n.id, p);
  }
  return p;
}

/** Records what a walk already knows (it reached `child` from `parent`): asking the tree would walk down from its root. */
export function knowParent(child: Node, parent: Node): void {
  if (child.tree !== tree) {
    parents.clear();
    tree = child.tree;
  }
  parents.set(child.id, parent);
}
