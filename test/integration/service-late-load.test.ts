// A server found ready that begins loading its project while it answers (typescript-language-server
// on a loaded machine) must not have its partial answer presented as complete: the
// service asks again once the server is ready (src/service/call.ts ServiceCall.run).
// fixtures/late-load-server answers the first references request with the same-file hit only,
// after announcing its project load; once loaded it lists every `.late` file.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, describe, expect, it } from 'vitest';

import { Gateway } from '../../src/gateway/gateway.js';

const SERVER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/late-load-server/server.mjs');

describe('a server that begins loading its project while answering', async () => {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-late-')));
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-'));
  for (const f of ['a', 'b', 'c']) fs.writeFileSync(path.join(root, `${f}.late`), 'function target() {}\n');
  const serversFile = path.join(cacheDir, 'servers.json');
  fs.writeFileSync(
    serversFile,
    JSON.stringify({
      servers: [
        {
          id: 'late-load',
          languages: ['late'],
          extensions: ['.late'],
          command: process.execPath,
          args: [SERVER],
          install: 'fixtures/late-load-server',
          adapter: 'generic',
          readiness: { kind: 'progress', titlePattern: 'Loading project', quietMs: 200 },
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

  it('find_references answers the complete list, asked again after the load, and says so', async () => {
    const column = 'function target'.indexOf('target') + 1;
    const r = (await gateway.run('find_references', { file: 'a.late', line: 1, column, output_format: 'json' })).result;
    expect((r.references as { file: string }[]).map((x) => x.file)).toEqual(['a.late', 'b.late', 'c.late']);
    expect(r.total).toBe(3);
    expect(r._meta.index_state).toBe('ready');
    expect(r._meta.warnings).toEqual(['late-load began indexing while answering: asked again once it was ready']);
  });
});
