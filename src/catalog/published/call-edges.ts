/**
 * The call edges the workspace's database recorded (`call_graph`: the calls find_callers /
 * find_callees computed between cataloged symbols), by the file the call is in, for `publish`: the
 * published `call_edges` are seed 003's call graph for SQL users of the index. They are what was
 * asked, not every call of the repository, so `--index` does not answer find_callers from them
 * (docs/architecture.md, "The published index").
 */
import type { SqlDb } from '../../chunks/sqlite-handle.js';

export type RecordedCall = { caller: string; callee: string; line: number };

export function recordedCalls(db: SqlDb): Map<string, RecordedCall[]> {
  const out = new Map<string, RecordedCall[]>();
  const rows = db
    .prepare(
      `SELECT f.path AS file, a.symbol_id AS caller, b.symbol_id AS callee, g.line AS line
         FROM call_graph g JOIN symbols a ON a.id = g.caller_id JOIN symbols b ON b.id = g.callee_id JOIN files f ON f.id = g.file_id
        ORDER BY f.path, g.line`,
    )
    .iterate();
  for (const r of rows) {
    const file = r.file as string;
    let list = out.get(file);
    if (!list) out.set(file, (list = []));
    list.push({ caller: r.caller as string, callee: r.callee as string, line: r.line as number });
  }
  return out;
}
