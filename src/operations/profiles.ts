/**
 * Tool profiles for MCP (`lspgate mcp --tools core|all|name,name…`, or `"tools"` in config): several
 * MCP clients cap the number of tools, and every listed schema costs each turn's context.
 */
import type { ToolsSetting } from '../config/schema.js';
import { LspgateError } from '../errors/errors.js';
import type { Operation } from './types.js';

/**
 * What an agent reaches for in most sessions, one tool per step of its loop: orient
 * (get_repo_outline, get_file_outline), find (search_symbols, search_text), read (get_symbol,
 * get_context), navigate (find_definition, find_references, find_callers, find_type_definition),
 * check its edit (get_diagnostics). README "Tool profiles" says why each.
 */
export const CORE_TOOLS = [
  'get_repo_outline',
  'get_file_outline',
  'search_symbols',
  'search_text',
  'get_symbol',
  'get_context',
  'find_definition',
  'find_references',
  'find_callers',
  'find_type_definition',
  'get_diagnostics',
] as const;

/** `--tools` as typed: a profile name or comma-separated operation names. */
export function parseToolsFlag(flag: string): ToolsSetting {
  const v = flag.trim();
  if (v === 'core' || v === 'all') return v;
  const names = v.split(',').map((s) => s.trim()).filter(Boolean);
  if (names.length === 0) throw new LspgateError('INVALID_INPUT', '--tools needs core, all, or a comma-separated list of tool names');
  return names;
}

/** The names of the operations a setting lists; an unknown name is INVALID_INPUT naming it and the valid ones. */
export function selectTools(setting: ToolsSetting, ops: readonly Operation[]): Set<string> {
  const valid = ops.map((o) => o.name);
  if (setting === 'all') return new Set(valid);
  const wanted: readonly string[] = setting === 'core' ? CORE_TOOLS.filter((n) => valid.includes(n)) : setting;
  const unknown = wanted.filter((n) => !valid.includes(n));
  if (unknown.length) {
    throw new LspgateError('INVALID_INPUT', `unknown tool${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} in --tools / "tools"; valid: core, all, ${valid.join(', ')}`, {
      unknown,
      valid,
    });
  }
  return new Set(wanted);
}
