/**
 * Every operation's MCP annotations are true, each for a stated reason (the table below), and the
 * listing says the same: the spec gives destructiveHint and idempotentHint meaning only when
 * readOnlyHint is false, so a read-only tool lists readOnlyHint and openWorldHint alone.
 * "Read-only" means: the call changes neither the workspace's files nor what a later call answers.
 * Caches any call may fill (the response cache, a catalog or search index built on first use)
 * answer as if they were empty and do not count.
 */
import { describe, expect, it } from 'vitest';

import { listedAnnotations } from '../../src/frontends/mcp/server.js';
import { DROPS_STATE, FETCHES, READ_ONLY, UPDATES_INDEX, WRITES_FILES } from '../../src/operations/annotations.js';
import { operations } from '../../src/operations/registry.js';
import type { OperationAnnotations } from '../../src/operations/types.js';

const READS = 'answers from the catalog, the files and the servers; a later call answers the same';

const TRUTH: Record<string, [OperationAnnotations, string]> = {
  index_folder: [UPDATES_INDEX, 'opens a workspace later calls see, writes its catalog to the cache and starts its servers; again: nothing more'],
  index_repo: [FETCHES, 'clones from a git remote (the open world) into the cache and opens it like index_folder'],
  list_repos: [READ_ONLY, READS],
  invalidate_cache: [DROPS_STATE, 'deletes the catalog in memory and on disk: later calls rebuild it'],
  refresh: [UPDATES_INDEX, 're-catalogs changed files and tells the servers: later answers follow; again: nothing more'],
  get_repo_outline: [READ_ONLY, READS],
  get_file_tree: [READ_ONLY, READS],
  detect_drift: [DROPS_STATE, '`reset: true` replaces the drift reference; the old one is gone'],
  get_symbol: [READ_ONLY, READS],
  get_symbols: [READ_ONLY, READS],
  search_symbols: [READ_ONLY, READS],
  search_text: [READ_ONLY, READS],
  find_type_definition: [READ_ONLY, READS],
  get_function_details: [READ_ONLY, READS],
  list_package_exports: [READ_ONLY, READS],
  get_file_outline: [READ_ONLY, READS],
  find_definition: [READ_ONLY, READS],
  find_references: [READ_ONLY, READS],
  find_callers: [READ_ONLY, READS],
  find_callees: [READ_ONLY, READS],
  open_at: [READ_ONLY, READS],
  get_context: [READ_ONLY, READS],
  list_workspaces: [READ_ONLY, READS],
  daemon_status: [READ_ONLY, 'reads the daemon and its sessions'],
  query_relationships: [READ_ONLY, READS],
  analyze_impact: [READ_ONLY, READS],
  changed_symbols: [READ_ONLY, 'reads git and the catalog; never writes the repository'],
  find_dead_code: [READ_ONLY, READS],
  render_diagram: [READ_ONLY, READS],
  analyze_complexity: [READ_ONLY, READS],
  find_patterns: [READ_ONLY, READS],
  coverage_report: [READ_ONLY, 'reads coverage files the workspace holds'],
  project_context: [READ_ONLY, READS],
  validate_references: [READ_ONLY, READS],
  get_diagnostics: [READ_ONLY, 'syncs the files as they are on disk to the servers and reads their diagnostics'],
  find_implementations: [READ_ONLY, READS],
  type_hierarchy: [READ_ONLY, READS],
  get_hover: [READ_ONLY, READS],
  signature_help: [READ_ONLY, READS],
  rename_symbol: [WRITES_FILES, '`apply: true` rewrites workspace files; a second apply is another edit'],
  code_actions: [WRITES_FILES, '`apply: <index>` rewrites workspace files; a second apply is another edit'],
  search_code: [READ_ONLY, 'ranks chunks of an index any search builds (`reindex` rebuilds it for the embedder in use)'],
  search: [READ_ONLY, 'the same search in another shape'],
  verify_citation: [READ_ONLY, READS],
  index_stats: [READ_ONLY, READS],
  replace_symbol_body: [WRITES_FILES, '`apply: true` rewrites a declaration in a workspace file; a second apply is another edit'],
  insert_before_symbol: [WRITES_FILES, '`apply: true` inserts declarations into a workspace file; a second apply inserts them again'],
  insert_after_symbol: [WRITES_FILES, '`apply: true` inserts declarations into a workspace file; a second apply inserts them again'],
  undo: [WRITES_FILES, 'restores the files of the last applied edit from its backups; a second undo goes one edit further back'],
  delete_symbol: [WRITES_FILES, '`apply: true` removes a declaration from a workspace file'],
  move_file: [WRITES_FILES, '`apply: true` renames a workspace file and rewrites its importers'],
  tag_elements: [WRITES_FILES, '`dry_run: false` inserts or rewrites comment lines in workspace files'],
};

describe('annotations', () => {
  it('the table covers exactly the operations', () => {
    expect(Object.keys(TRUTH).sort()).toEqual(operations.map((o) => o.name).sort());
  });

  it.each(operations.map((o) => [o.name, o] as const))('%s: as the table says, for its reason', (name, op) => {
    const [expected, reason] = TRUTH[name]!;
    expect(reason.length).toBeGreaterThan(10);
    expect(op.annotations).toEqual(expected);
    // consistent in itself: a tool that only reads can destroy nothing
    if (op.annotations.readOnlyHint) expect(op.annotations.destructiveHint).toBe(false);
    expect(listedAnnotations(op.annotations)).toEqual(
      op.annotations.readOnlyHint ? { readOnlyHint: true, openWorldHint: op.annotations.openWorldHint } : op.annotations,
    );
  });
});
