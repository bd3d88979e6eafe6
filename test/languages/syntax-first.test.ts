// A cold workspace answers search_symbols from its catalog of parse trees while its language
// server answers nothing — marked ready, no warning of waiting — and the server, once it answers,
// lists the same ids (the background verification compares them). The server is
// typescript-language-server behind fixtures/gated-server, which holds its documentSymbol answers
// until the test opens a gate file: no server answer can come before the search, whatever the load.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, describe, expect, it } from 'vitest';

import type { WorkspaceCatalog } from '../../src/catalog/catalog.js';
import { shippedServersFile } from '../../src/config/load.js';
import { Gateway } from '../../src/gateway/gateway.js';
import { ServiceCataloger } from '../../src/service/cataloging/cataloger.js';
import { verifySample } from '../../src/service/workspace/verification.js';
import { FIXTURES } from '../helpers/gateway.js';

const GATED = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/gated-server/server.mjs');
const TLS = createRequire(import.meta.url).resolve('typescript-language-server/lib/cli.mjs');

interface Hit {
  symbol_id: string;
}
interface Tiers {
  syntax_files: number;
  server_files: number;
  disagreement: { files_sampled: number; files_compared: number; rate: number };
}

describe('the parse-tree catalog answers before the server, with the ids the server gives', async () => {
  const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-syntax-first-')));
  const root = path.join(tmp, 'ts-app');
  fs.cpSync(path.join(FIXTURES, 'ts-app'), root, { recursive: true });
  const gate = path.join(tmp, 'gate-open');
  // the shipped typescript-language-server entry, started behind the gate instead of directly
  const shipped = (JSON.parse(fs.readFileSync(shippedServersFile(), 'utf8')) as { servers: Record<string, unknown>[] }).servers.find(
    (s) => s.id === 'typescript-language-server',
  )!;
  const { package: _p, binPath: _b, node: _n, ...entry } = shipped;
  const serversFile = path.join(tmp, 'servers.json');
  fs.writeFileSync(
    serversFile,
    JSON.stringify({
      servers: [
        { ...entry, id: 'gated-ts', priority: 100, command: process.execPath, args: [GATED, `--gate=${gate}`, '--', process.execPath, TLS, '--stdio'] },
      ],
    }),
  );
  const gateway = await Gateway.create({ root, cacheDir: path.join(tmp, 'cache'), serversFiles: [serversFile] });
  afterAll(async () => {
    // held answers go out first: a failed test must not leave the server waiting on the gate
    fs.writeFileSync(gate, '');
    await gateway.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });
  const run = async (op: string, input: Record<string, unknown> = {}) => (await gateway.run(op, { ...input, output_format: 'json' })).result;
  const tiers = async () => ((await run('list_repos')).repos as { root: string; tiers: Tiers }[]).find((r) => r.root === root)!.tiers;

  it('search_symbols answers from the parse-tree catalog while the server answers nothing; the server lists the same ids', async () => {
    const early = await run('search_symbols', { query: 'User', max_results: 50 });
    expect(early._meta.index_state).toBe('ready');
    expect(early._meta.warnings ?? []).toEqual([]);
    const earlyIds = (early.results as Hit[]).map((h) => h.symbol_id);
    expect(earlyIds).toEqual(expect.arrayContaining(['src/models/user.ts::User#class', 'src/models/user.ts::User.nickname#property']));
    expect(await tiers()).toMatchObject({ syntax_files: 11, server_files: 0 });

    fs.writeFileSync(gate, '');
    const cat = (await gateway.workspaceFor(root)).catalog as WorkspaceCatalog;
    await verifySample(cat, new ServiceCataloger(gateway.context, root), gateway.context.logger, Infinity);
    const late = await run('search_symbols', { query: 'User', max_results: 50 });
    expect((late.results as Hit[]).map((h) => h.symbol_id)).toEqual(earlyIds);
    expect(await tiers()).toMatchObject({ syntax_files: 11, server_files: 0, disagreement: { files_sampled: 11, files_compared: 11, rate: 0 } });
  });
});
