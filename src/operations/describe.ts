/**
 * An operation's description as a front-end shows it: its own text, then the related operations
 * the same list holds ("See also: find_references for its uses."). An MCP tool profile that leaves
 * a tool out never names it: an agent would call a tool it does not have.
 */
import type { Operation } from './types.js';

export function describeOperation(op: Operation, listed: (name: string) => boolean = () => true): string {
  const related = Object.entries(op.related ?? {}).filter(([name]) => listed(name));
  if (related.length === 0) return op.description;
  return `${op.description} See also: ${related.map(([name, why]) => `${name} ${why}`).join('; ')}.`;
}
