/**
 * `lspgate mcp --tools` checked by the thin client (node builtins only): a bad value is the full
 * CLI's startup error — the same `INVALID_INPUT: …` text (details included) and exit status 2 —
 * printed before any daemon is reached or started, and without loading the full CLI. The names
 * are operations/registry.ts's, in its order; test/unit/thin-tools.test.ts keeps the two lists
 * equal and the text equal to parseToolsFlag + selectTools + errorText's.
 */

export const OPERATION_NAMES: readonly string[] = [
  'index_folder', 'index_repo', 'list_repos', 'invalidate_cache', 'refresh', 'get_repo_outline', 'get_file_tree',
  'detect_drift', 'get_symbol', 'get_symbols', 'search_symbols', 'search_text', 'find_type_definition',
  'get_function_details', 'list_package_exports', 'get_file_outline', 'find_definition', 'find_references',
  'find_callers', 'find_callees', 'open_at', 'get_context', 'list_workspaces', 'daemon_status',
  'query_relationships', 'analyze_impact', 'changed_symbols', 'find_dead_code', 'render_diagram',
  'analyze_complexity', 'find_patterns', 'coverage_report', 'project_context', 'validate_references',
  'get_diagnostics', 'find_implementations', 'type_hierarchy', 'get_hover', 'signature_help', 'rename_symbol',
  'code_actions', 'search_code', 'search', 'verify_citation', 'index_stats', 'tag_elements',
];

/** What the full CLI prints on stderr for this `--tools` value (exit status 2), or undefined when it is valid. */
export function toolsFlagError(flag: string, valid: readonly string[] = OPERATION_NAMES): string | undefined {
  const v = flag.trim();
  if (v === 'core' || v === 'all') return undefined;
  const names = v.split(',').map((s) => s.trim()).filter(Boolean);
  if (names.length === 0) return 'INVALID_INPUT: --tools needs core, all, or a comma-separated list of tool names\n';
  const unknown = names.filter((n) => !valid.includes(n));
  if (unknown.length === 0) return undefined;
  const message = `unknown tool${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} in --tools / "tools"; valid: core, all, ${valid.join(', ')}`;
  return `INVALID_INPUT: ${message}\n${JSON.stringify({ unknown, valid }, null, 2)}\n`;
}
