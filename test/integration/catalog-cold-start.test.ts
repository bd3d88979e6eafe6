/**
 * A cold catalog build must not get its server killed by its own flood: timeouts of the
 * build's background requests do not count toward "hung", files that failed are asked once more at
 * the end, and an incomplete catalog says so in the text an agent reads.
 * The fault server never answers documentSymbol, so every file times out.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { FAULT_SERVER } from '../../fixtures/fault-server/entry.js';
import { Gateway } from '../../src/gateway/gateway.js';

describe('a cold catalog build against a server that times out', async () => {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-cold-')));
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-cache-'));
  for (const f of ['a', 'b', 'c', 'd', 'e']) fs.writeFileSync(path.join(root, `${f}.fault`), 'fault file\n');
  const serversFile = path.join(cacheDir, 'servers.json');
  fs.writeFileSync(
    serversFile,
    JSON.stringify({
      servers: [
        {
          id: 'fault',
          languages: ['fault'],
          extensions: ['.fault'],
          command: process.execPath,
          args: [FAULT_SERVER, '--hang-on=textDocument/documentSymbol'],
          install: 'it is in fixtures/fault-server',
          adapter: 'generic',
          readiness: { kind: 'first-reply' },
          timeouts: { requestMs: 300 },
          restart: { maxConsecutiveTimeouts: 3, maxCrashes: 5, windowMs: 180_000 },
        },
      ],
    }),
  );
  const gateway = await Gateway.create({ root, cacheDir, serversFiles: [serversFile] });
  afterAll(async () => {
    await gateway.close();
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(cacheDir, { recursive: true, force: true });
  });

  it('keeps the server alive, retries each failed file once, and says what is missing', async () => {
    const progress: { progress: number; total?: number }[] = [];
    const r = await gateway.run('index_folder', { path: root, output_format: 'markdown' }, { progress: (p) => progress.push(p) });
    const result = r.result as unknown as { state: string; errors: { file: string; code: string }[] };
    expect(result.state).toBe('partial');
    // Every file timed out twice (the build, then the retry), and that is all it is: no crash.
    expect(result.errors.map((e) => [e.file, e.code])).toEqual(['a', 'b', 'c', 'd', 'e'].map((f) => [`${f}.fault`, 'TIMEOUT']));
    const [info] = gateway.context.broker.info();
    expect(info!.generation).toBe(1);
    expect(info!.crashes).toBe(0);
    // first-reply readiness: a server that has never answered is still `indexing`, and still running.
    expect(info!.state).toBe('indexing');
    expect(progress.every((p) => p.total === 5)).toBe(true);
    // The text an agent reads says the answer is incomplete, how many files and why.
    expect(r.text).toMatch(/^> \*\*index_state: partial\*\*/);
    expect(r.text).toContain('5 file(s) could not be cataloged (TIMEOUT 5)');
    const search = await gateway.run('search_symbols', { query: 'FaultSymbol' });
    expect(search.text).toContain('5 file(s) could not be cataloged (TIMEOUT 5)');
  });
});
