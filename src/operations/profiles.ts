/**
 * Tool profiles for MCP (`lspgate mcp --tools core|all|name,name…`, or `"tools"` in config): several
 * MCP clients cap the number of tools, and every listed schema costs each turn's context.
 */
import type { ToolsSetting } from '../config/schema.js';
import { LspgateError } from '../errors/errors.js';
import type { Operation } from './types.js';

/**
 * Which operations a default profile lists: `core` the operations whose `profile` is core (one tool
 * per step of an agent's loop: orient, find, read, navigate, check an edit; README "Tool profiles"
 * says why each), `all` every operation but those listed by name only.
 */
export function profileTools(profile: 'core' | 'all', ops: readonly Operation[]): string[] {
  const wanted = (op: Operation) => (op.profile ?? 'all') === 'core' || (profile === 'all' && (op.profile ?? 'all') === 'all');
  return ops.filter(wanted).map((o) => o.name);
}

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
  if (setting === 'core' || setting === 'all') return new Set(profileTools(setting, ops));
  const valid = ops.map((o) => o.name);
  const wanted: readonly string[] = setting;
  const unknown = wanted.filter((n) => !valid.includes(n));
  if (unknown.length) {
    throw new LspgateError('INVALID_INPUT', `unknown tool${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} in --tools / "tools"; valid: core, all, ${valid.join(', ')}`, {
      unknown,
      valid,
    });
  }
  return new Set(wanted);
}
