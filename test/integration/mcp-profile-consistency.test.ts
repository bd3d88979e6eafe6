/**
 * A tool profile is self-consistent: every tool name that any listed text mentions — tool
 * descriptions, the fields of their input and output schemas, the server instructions, the prompts
 * and what the exploring prompt tells the agent — is a tool of the same profile, for `core`, `default`, `all`
 * and custom lists (each tool alone, and pairs). A custom list that leaves out a tool another one's
 * description points to gets that description without the pointer (operations/describe.ts). No
 * listed text cites a seed or an issue. In-process server and client on an empty workspace: no
 * language server starts.
 */
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Gateway } from '../../src/gateway/gateway.js';
import { profileTools, selectTools } from '../../src/operations/profiles.js';
import { operations } from '../../src/operations/registry.js';
import { connectInProcess } from '../helpers/mcp-client.js';
import { removeDir, tempDir } from '../helpers/spawn.js';

let root: string;
let gateway: Gateway;
const NAMES = operations.map((o) => o.name);

beforeAll(async () => {
  root = tempDir('lspgate-mentions-');
  gateway = await Gateway.create({ root, cacheDir: path.join(root, '.cache') });
});

afterAll(async () => {
  await gateway.close();
  removeDir(root);
});

/**
 * The operation names `text` mentions: a name with an underscore wherever it stands as a word; a
 * one-word name (`search`, `refresh`) only in backticks, where it cannot be the English word.
 */
export function mentions(text: string): Set<string> {
  const found = new Set<string>();
  for (const name of NAMES) {
    const pattern = name.includes('_') ? new RegExp(`(?<![\\w/])${name}(?![\\w])`) : new RegExp(`\`${name}\``);
    if (pattern.test(text)) found.add(name);
  }
  return found;
}

/** Every string in a JSON value. */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) strings(v, out);
  return out;
}

/** What an agent reads of a server listing `tools`: tools/list, the instructions, the prompts and the exploring prompt's text. */
async function listedText(tools: ReadonlySet<string>): Promise<{ listed: string[]; text: string[] }> {
  const { client, close } = await connectInProcess(gateway, tools);
  try {
    const list = await client.listTools();
    const prompts = await client.listPrompts();
    const explore = await client.getPrompt({ name: 'explore_repository', arguments: {} });
    // tool names are mentions of themselves only as names: leave the `name` fields out
    const bodies = list.tools.map(({ name: _n, ...rest }) => rest);
    return { listed: list.tools.map((t) => t.name), text: strings([bodies, client.getInstructions() ?? '', prompts, explore]) };
  } finally {
    await close();
  }
}

const PROFILES: [string, string[]][] = [
  ['core', profileTools('core', operations)],
  ['default', profileTools('default', operations)],
  ['all', profileTools('all', operations)],
  ...NAMES.map((n): [string, string[]] => [n, [n]]),
  ['search_symbols + search_text', ['search_symbols', 'search_text']],
  ['find_definition + find_references', ['find_definition', 'find_references']],
  ['search + list_repos (listed only by name)', ['search', 'list_repos']],
];

describe('profile self-consistency', () => {
  it.each(PROFILES)('%s: every tool any listed text names is listed', async (_label, names) => {
    const { listed, text } = await listedText(selectTools(names, operations));
    expect(listed.sort()).toEqual([...names].sort());
    const stray = new Set<string>();
    for (const t of text) for (const m of mentions(t)) if (!listed.includes(m)) stray.add(m);
    expect([...stray]).toEqual([]);
    for (const t of text) expect(t).not.toMatch(/\bseeds?\b|\bissue \d/i);
  });

  it('a related tool is named when the profile lists it', async () => {
    const { text } = await listedText(selectTools(['find_definition', 'find_references'], operations));
    expect(text.some((t) => t.includes('See also: find_references'))).toBe(true);
    const alone = await listedText(selectTools(['find_definition'], operations));
    expect(alone.text.some((t) => t.includes('See also'))).toBe(false);
  });

  it('the mention rule finds what it must', () => {
    expect([...mentions('Use find_references, or `search` for chunks; search the text')].sort()).toEqual(['find_references', 'search']);
    expect([...mentions('lspgate://{workspace}/symbol/{symbol_id}')]).toEqual([]);
  });
});
