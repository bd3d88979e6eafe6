/**
 * Tool profiles for MCP (`lspgate mcp --tools core|default|all|name,name…`, or `"tools"` in config): several
 * MCP clients cap the number of tools, and every listed schema costs each turn's context.
 */
import path from 'node:path';

import { loadToolsLayers } from '../config/load.js';
import type { ToolsSetting } from '../config/schema.js';
import { trustedBy } from '../config/trust.js';
import { LspgateError } from '../errors/errors.js';
import type { Operation } from './types.js';

/** The named profiles, smallest first; `default` is what `lspgate mcp` lists without `--tools` or config. */
export const PROFILE_NAMES = ['core', 'default', 'all'] as const;
export type ProfileName = (typeof PROFILE_NAMES)[number];

/**
 * The operations that change code which the `default` profile lists beside core: an agent that reads
 * code mostly goes on to edit it. Kept to what fits the default's budget (≤ 20 tools and ≤ 10,000
 * tokens of tools/list with output schemas, bench/tools-list.ts): `insert_before_symbol` (~620
 * tokens; `insert_after_symbol` of the symbol before does the same), `rename_symbol` (~750),
 * `code_actions` and `tag_elements` write too, but are asked for by name or with `--tools all`.
 */
export const DEFAULT_EDIT_TOOLS: readonly string[] = ['replace_symbol_body', 'insert_after_symbol', 'delete_symbol', 'undo'];

function isProfileName(v: string): v is ProfileName {
  return (PROFILE_NAMES as readonly string[]).includes(v);
}

/**
 * Which operations a named profile lists: `core` the operations whose `profile` is core (one tool
 * per step of an agent's loop: orient, find, read, navigate, check an edit; docs/front-ends.md "Tool
 * profiles" says why each), `default` core plus DEFAULT_EDIT_TOOLS, `all` every operation but those
 * listed by name only.
 */
export function profileTools(profile: ProfileName, ops: readonly Operation[]): string[] {
  const wanted = (op: Operation) => {
    const own = op.profile ?? 'all';
    if (own === 'core') return true;
    if (profile === 'default') return DEFAULT_EDIT_TOOLS.includes(op.name);
    return profile === 'all' && own === 'all';
  };
  return ops.filter(wanted).map((o) => o.name);
}

/** `--tools` as typed: a profile name or comma-separated operation names. */
export function parseToolsFlag(flag: string): ToolsSetting {
  const v = flag.trim();
  if (isProfileName(v)) return v;
  const names = v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (names.length === 0) throw new LspgateError('INVALID_INPUT', '--tools needs core, default, all, or a comma-separated list of tool names');
  return names;
}

/** The names of the operations a setting lists; an unknown name is INVALID_INPUT naming it and the valid ones. */
export function selectTools(setting: ToolsSetting, ops: readonly Operation[]): Set<string> {
  if (typeof setting === 'string') return new Set(profileTools(setting, ops));
  const valid = ops.map((o) => o.name);
  const wanted: readonly string[] = setting;
  const unknown = wanted.filter((n) => !valid.includes(n));
  if (unknown.length) {
    throw new LspgateError(
      'INVALID_INPUT',
      `unknown tool${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} in --tools / "tools"; valid: ${PROFILE_NAMES.join(', ')}, ${valid.join(', ')}`,
      {
        unknown,
        valid,
      },
    );
  }
  return new Set(wanted);
}

export interface ConfiguredTools {
  tools: Set<string>;
  /** What was ignored and why: a repository's widening of the user's profile. */
  warnings: string[];
}

/** The names a warning lists, at most 8 (a widening to `all` would name 40). */
function someNames(names: string[]): string {
  return names.length <= 8 ? names.join(', ') : `${names.slice(0, 8).join(', ')} and ${names.length - 8} more`;
}

/**
 * The tools `lspgate mcp` lists without `--tools`: the user's `"tools"` (default: the `default`
 * profile), narrowed by the workspace's `.lspgate/config.json`, never widened by it. A repository is
 * data: a clone whose config listed `all` gave an agent move_file and delete_symbol the user had
 * left out. A folder the user trusts (`lspgate trust`) chooses its own list.
 */
export function configuredTools(root: string, ops: readonly Operation[], env: NodeJS.ProcessEnv = process.env): ConfiguredTools {
  const { user, workspace } = loadToolsLayers(root, env);
  const userSetting = user?.setting ?? 'default';
  const mine = selectTools(userSetting, ops);
  if (!workspace) return { tools: mine, warnings: [] };
  const theirs = selectTools(workspace.setting, ops);
  // the tools that write first: those are what a user who chose a smaller profile left out on purpose
  const writes = new Set(ops.filter((o) => !o.annotations.readOnlyHint).map((o) => o.name));
  const widened = [...theirs].filter((n) => !mine.has(n)).sort((a, b) => Number(writes.has(b)) - Number(writes.has(a)));
  if (!widened.length || trustedBy(root, env) !== undefined) return { tools: theirs, warnings: [] };
  const kept = [...theirs].filter((n) => mine.has(n));
  const warning =
    `ignored .lspgate/config.json "tools" ${JSON.stringify(workspace.setting)} beyond the user's profile ${JSON.stringify(userSetting)}: ` +
    `${someNames(widened)} not listed (a repository's config may narrow the tool list, never widen it); ` +
    `to let this repository choose its tools, run \`lspgate trust ${path.resolve(root)}\`, or start lspgate with --tools`;
  return { tools: kept.length ? new Set(kept) : mine, warnings: [warning] };
}
