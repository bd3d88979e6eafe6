/**
 * The default MCP profile (`lspgate mcp` without --tools) is one an agent can afford: core plus the
 * operations that change code, at most 20 tools and at most 10,000 tokens of tools/list with the
 * output schemas (tokens ≈ bytes / 4, as bench/tools-list.ts counts them: no tokenizer is a
 * dependency). In-process server and client on an empty workspace: no language server starts.
 */
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Gateway } from '../../src/gateway/gateway.js';
import { DEFAULT_EDIT_TOOLS, profileTools, selectTools } from '../../src/operations/profiles.js';
import { operations } from '../../src/operations/registry.js';
import { connectInProcess } from '../helpers/mcp-client.js';
import { removeDir, tempDir } from '../helpers/spawn.js';

let root: string;
let gateway: Gateway;

beforeAll(async () => {
  root = tempDir('lspgate-default-profile-');
  gateway = await Gateway.create({ root, cacheDir: path.join(root, '.cache') });
});

afterAll(async () => {
  await gateway.close();
  removeDir(root);
});

describe('the default tool profile', () => {
  it('is core plus the edit operations, each one an operation that writes', () => {
    const core = profileTools('core', operations);
    const listed = profileTools('default', operations);
    expect(listed.filter((n) => !core.includes(n)).sort()).toEqual([...DEFAULT_EDIT_TOOLS].sort());
    for (const name of DEFAULT_EDIT_TOOLS) expect(operations.find((o) => o.name === name)?.annotations.readOnlyHint, name).toBe(false);
  });

  it("fits an agent's loop: impact and code search are in it", () => {
    const listed = profileTools('default', operations);
    for (const name of ['analyze_impact', 'search_code', 'search_symbols', 'get_context', 'find_callers', 'get_diagnostics', 'replace_symbol_body'])
      expect(listed, name).toContain(name);
  });

  it('lists at most 20 tools in at most 10,000 tokens, output schemas included', async () => {
    const { client, close } = await connectInProcess(gateway, selectTools('default', operations));
    try {
      const list = await client.listTools();
      expect(list.tools.length).toBeLessThanOrEqual(20);
      expect(list.tools.every((t) => t.outputSchema !== undefined)).toBe(true);
      expect(Math.ceil(Buffer.byteLength(JSON.stringify(list)) / 4)).toBeLessThanOrEqual(10_000);
    } finally {
      await close();
    }
  });
});
