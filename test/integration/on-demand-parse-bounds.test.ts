/**
 * Parses asked for on demand — a file's structure when an operation loads it through its server, the
 * complexity of a file — run in a syntax worker within the parse deadline, not on the thread that
 * answers every call. A Go workspace (gopls) holds 100,000 nested function literals (deep.go): its
 * structure took seconds and its complexity query ~10 s on the daemon's thread, 10-30x the 300 ms
 * deadline given here, which a small file's parse stays far below (a few ms; grammar loading and
 * query compiling are outside the deadline).
 * - find_definition in deep.go answers (gopls), and `_meta.warnings` names the file, TIMEOUT and the
 *   limit: its structure was not read.
 * - analyze_complexity of q/deep.go (300,000 levels) is a TIMEOUT error naming the file and limits.parseTimeoutMs, and a
 *   second call started after it (the outline of a small file) ends before it: the thread answered
 *   meanwhile. Nothing here is timed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { LspgateError } from '../../src/errors/errors.js';
import { Gateway } from '../../src/gateway/gateway.js';
import { goAvailable } from '../helpers/go.js';
import { deepInputs } from '../helpers/hostile-sources.js';
import { assertBuilt } from '../helpers/spawn.js';

const deepGo = deepInputs().find((i) => i.name === 'deep-decl go')!;
/**
 * The complexity query reads the tree in one walk (a node's parent is no longer walked down to from
 * the root), so 100,000 levels take 250-1,000 ms: three times as many, in a package of their own
 * (go/parser stops at 100,000 levels: gopls sees that package as unparsable, not the one asked about).
 */
const deeperGo = deepInputs(300_000)
  .find((i) => i.name === 'deep-decl go')!
  .text.replace(/^package p/, 'package q');

describe.skipIf(!goAvailable)('on-demand parses are bounded and off the main thread', () => {
  let root: string;
  let cacheDir: string;
  let gateway: Gateway;

  beforeAll(async () => {
    assertBuilt(); // the syntax workers run the built modules
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-ondemand-')));
    cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-ondemand-cache-'));
    fs.writeFileSync(path.join(root, 'go.mod'), 'module example.com/p\n\ngo 1.21\n');
    fs.writeFileSync(path.join(root, 'a.go'), 'package p\n\n// Total adds.\nfunc Total(a, b int) int { return a + b }\n\nvar T = Total(1, 2)\n');
    fs.writeFileSync(path.join(root, 'deep.go'), deepGo.text);
    fs.mkdirSync(path.join(root, 'q'));
    fs.writeFileSync(path.join(root, 'q', 'deep.go'), deeperGo);
    gateway = await Gateway.create({ root, cacheDir, limits: { parseTimeoutMs: 300, maxFileBytes: 4_000_000 } });
    await gateway.run('index_folder', { path: root, output_format: 'json' });
  }, 240_000);

  afterAll(async () => {
    await gateway?.close();
    for (const d of [root, cacheDir]) if (d) fs.rmSync(d, { recursive: true, force: true });
  });

  const json = async (op: string, input: Record<string, unknown>) =>
    (await gateway.run(op, { ...input, output_format: 'json' })).result as { _meta: { warnings?: string[] } };

  it('a definition in the deep file answers, and its warnings name the file whose structure was over the deadline', async () => {
    const r = await json('find_definition', { file: 'deep.go', line: 2, column: 5 });
    const warnings = (r._meta.warnings ?? []).join('\n');
    expect(warnings).toMatch(/deep\.go: parsing did not finish within 300 ms \(limits\.parseTimeoutMs\).*\(TIMEOUT\)/);
  }, 240_000);

  it("the deep file's complexity is a TIMEOUT naming it, and a call started after it ends first", async () => {
    await json('get_file_outline', { file: 'a.go' });
    const ended: string[] = [];
    const slow = gateway.run('analyze_complexity', { element: 'q/deep.go', output_format: 'json' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    void slow.then(() => ended.push('complexity'));
    const second = json('get_file_outline', { file: 'a.go' }).then((r) => (ended.push('outline'), r));
    const [err, outline] = await Promise.all([slow, second]);
    expect(err).toBeInstanceOf(LspgateError);
    expect((err as LspgateError).code).toBe('TIMEOUT');
    expect((err as LspgateError).message).toContain('deep.go');
    expect((err as LspgateError).details).toMatchObject({ file: 'q/deep.go', limit: 'parseTimeoutMs' });
    expect(JSON.stringify(outline)).toContain('Total');
    expect(ended).toEqual(['outline', 'complexity']);
  }, 240_000);
});
