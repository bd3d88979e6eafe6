/**
 * The policy file (`--policy FILE`, else the repository's `.lspgate/policy.json`): a `category` per
 * chunk from path rules, and the category's ModificationGuidance (seed 004) — what else to review,
 * which tests to run, what to watch out for when the code changes. Informative, never enforced.
 * JSON, not YAML: JSON.parse is built in and bounded by corpus-input.ts's caps, and no YAML parser is
 * a dependency (adding one for a settings file would add a parser of a much larger grammar to what
 * reads repository data). The shape:
 *   {"rules": [{"category": "payments", "paths": ["src/pay/**"],
 *               "guidance": {"also_review": […], "required_tests": […], "watch_out": […]}}]}
 * A path matches a rule when one of its globs matches the workspace-relative path (`**` crosses
 * directories; a glob without `/` matches the file name in any directory, as the catalog's globs do);
 * the first rule that matches gives the chunk its category.
 */
import { globMatcher } from '../catalog/glob.js';
import { Fields, isObject, MAX_DATA_BYTES, parseBounded } from './corpus-input.js';
import type { ModificationGuidance } from './types.js';

export const MAX_RULES = 500;

export interface PolicyRule {
  category: string;
  paths: string[];
  guidance?: ModificationGuidance;
}

export interface Policy {
  rules: PolicyRule[];
  problems: string[];
}

const CATEGORY = /^[\w.-]{1,80}$/;

function guidanceOf(f: Fields): ModificationGuidance | undefined {
  f.only(['also_review', 'required_tests', 'watch_out']);
  const out: ModificationGuidance = {};
  for (const k of ['also_review', 'required_tests', 'watch_out'] as const) {
    const v = f.strs(k);
    if (v?.length) out[k] = v;
  }
  return Object.keys(out).length ? out : undefined;
}

/** The policy's rules; what is not understood is a problem, said, and the rest is kept. */
export function parsePolicy(text: string): Policy {
  const problems: string[] = [];
  let v: unknown;
  try {
    v = parseBounded(text, 'the policy', MAX_DATA_BYTES);
  } catch (e) {
    return { rules: [], problems: [(e as Error).message] };
  }
  if (!isObject(v)) return { rules: [], problems: ['the policy is not a JSON object'] };
  const top = new Fields(v, 'policy', problems);
  top.only(['rules']);
  const list = top.objs('rules');
  if (!list) problems.push('policy: "rules" is required (a list of {category, paths, guidance})');
  const rules: PolicyRule[] = [];
  for (const r of (list ?? []).slice(0, MAX_RULES)) {
    r.only(['category', 'paths', 'guidance']);
    const category = r.str('category', true);
    const paths = r.strs('paths')?.filter((p) => {
      try {
        globMatcher(p);
        return true;
      } catch (e) {
        problems.push(`policy: glob "${p.slice(0, 80)}": ${(e as Error).message.slice(0, 200)}`);
        return false;
      }
    });
    if (!paths?.length) problems.push(`policy rule ${rules.length + 1}: "paths" must list at least one glob`);
    if (category !== undefined && !CATEGORY.test(category)) problems.push(`policy: category "${category.slice(0, 60)}" is not a name (letters, digits, . _ -)`);
    const g = r.sub('guidance');
    const guidance = g && guidanceOf(g);
    if (category && CATEGORY.test(category) && paths?.length) rules.push({ category, paths, ...(guidance ? { guidance } : {}) });
  }
  return { rules, problems: problems.slice(0, 100) };
}

export interface Categorized {
  category: string;
  guidance?: ModificationGuidance;
}

/** file → its rule's category and guidance, first rule first; each path's answer is remembered. */
export function categorizer(policy: Policy): (file: string) => Categorized | undefined {
  const matchers = policy.rules.map((r) => ({
    r,
    match: r.paths.map((p) => globMatcher(p)),
  }));
  const memo = new Map<string, Categorized | undefined>();
  return (file) => {
    if (memo.has(file)) return memo.get(file);
    const hit = matchers.find((m) => m.match.some((g) => g(file)))?.r;
    const out = hit && { category: hit.category, ...(hit.guidance ? { guidance: hit.guidance } : {}) };
    memo.set(file, out);
    return out;
  };
}
