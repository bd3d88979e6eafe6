/**
 * The operation table is the only list of operations: the MCP prompts, resources, completions and
 * the server instructions call or name operations by name, and every name they use must be one of
 * the table's, so that renaming or removing an operation fails here rather than at a user's call.
 * The names are read from the sources where they are used: a run(…) or results(…) call with a
 * literal name, a tour step's, a resource's `op:`, and string lists of operation names (ORIENTING, LOOK_CLOSER).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { operations } from '../../src/operations/registry.js';
import { REPO } from '../helpers/spawn.js';

const DIRS = ['src/frontends/mcp', 'src/tour'];
const USES = [/\bstep\(`[^`]*`,\s*'([a-z_]+)'/g, /\brun\(\s*'([a-z]+(?:_[a-z]+)+)'/g, /\bresults<[^>]*>\(\s*gateway,\s*'([a-z_]+)'/g, /\bop: '([a-z_]+)'/g];
const LISTS = /const (?:ORIENTING|LOOK_CLOSER) = \[([^\]]*)\]/g;

function namesUsed(): Map<string, string[]> {
  const used = new Map<string, string[]>();
  const add = (name: string, file: string) => used.set(name, [...(used.get(name) ?? []), file]);
  for (const dir of DIRS) {
    for (const f of readdirSync(path.join(REPO, dir)).filter((x) => x.endsWith('.ts'))) {
      const text = readFileSync(path.join(REPO, dir, f), 'utf8');
      for (const re of USES) for (const m of text.matchAll(re)) add(m[1]!, `${dir}/${f}`);
      for (const m of text.matchAll(LISTS)) for (const n of m[1]!.matchAll(/'([a-z_]+)'/g)) add(n[1]!, `${dir}/${f}`);
    }
  }
  return used;
}

describe('operation names used outside the table', () => {
  it('are all operations of the table', () => {
    const used = namesUsed();
    // the scan finds what it must: prompts, completions, resources and the tour all run operations
    expect([...used.keys()]).toEqual(
      expect.arrayContaining(['get_repo_outline', 'search_symbols', 'get_file_outline', 'find_callers', 'get_function_details']),
    );
    const known = new Set(operations.map((o) => o.name));
    const unknown = [...used].filter(([name]) => !known.has(name)).map(([name, files]) => `${name} (${files.join(', ')})`);
    expect(unknown).toEqual([]);
  });
});
