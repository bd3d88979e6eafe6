/**
 * The call edges of a call tree between cataloged symbols, for the workspace database's call_graph
 * (seed 003's table): what find_callers and find_callees computed is kept, so the database answers
 * "who calls X" for the calls lspgate has walked. A node without a catalog id (a declaration the
 * catalog does not hold) gives no edge.
 */
import type { CallEdgeRow } from '../../core/catalog.js';

/** What a call tree's node gives (call-tree.ts CallNode): its file, id, call sites and next level. */
interface CallNode {
  file: string;
  symbol_id?: string | undefined;
  call_sites?: { line: number }[];
  calls?: CallNode[];
  children?: CallNode[];
}

export function callEdgesOf(root: CallNode, direction: 'incoming' | 'outgoing'): CallEdgeRow[] {
  const out: CallEdgeRow[] = [];
  const visit = (parent: CallNode, nodes: CallNode[] | undefined): void => {
    for (const node of nodes ?? []) {
      // incoming: node calls parent, its call sites are in node's file; outgoing: parent calls node, sites in parent's file
      const [caller, callee] = direction === 'incoming' ? [node, parent] : [parent, node];
      if (caller.symbol_id && callee.symbol_id) {
        for (const site of node.call_sites ?? []) out.push({ caller: caller.symbol_id, callee: callee.symbol_id, file: caller.file, line: site.line });
      }
      visit(node, node.children);
    }
  };
  visit(root, root.calls);
  return out;
}
