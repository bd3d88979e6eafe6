/**
 * Fields several operations' outputs share, defined once: a symbol row (what lists of cataloged
 * symbols give each entry) and a tree node (what call trees and type hierarchies give each node).
 * An operation spreads the shape into its own object and adds, or narrows, what is its own.
 */
import { z } from 'zod';

/** One cataloged symbol in a list: its id (a target for other operations), its names, kind and place. */
export const symbolRowShape = {
  symbol_id: z.string().describe('The catalog id (a target for other operations)'),
  name: z.string(),
  qualified_name: z.string(),
  kind: z.string(),
  file: z.string(),
  line: z.number().int(),
};

/** One node of a call tree or a type hierarchy; the tree's own edges are added by each. */
export const treeNodeShape = {
  name: z.string(),
  kind: z.string(),
  file: z.string(),
  line: z.number().int(),
  symbol_id: z.string().optional().describe('The catalog id of this declaration (a target for other operations)'),
  qualified_name: z.string().optional().describe("The catalog's qualified name (`conn.readRequest`), where it is not `name`"),
  detail: z.string().optional(),
  cycle: z.boolean().optional().describe('Already on the path from the root: not expanded again'),
};

export const TreeNodeSchema = z.object(treeNodeShape);
export type TreeNode = z.infer<typeof TreeNodeSchema>;
