// A server that answers before it has found its project's files (pyright: its first analysis pass
// enumerates the include paths, and until it ends references and incoming calls search open files
// only — callers asked right after start listed the open test file's caller alone) must not have
// that answer presented as complete: a request whose answer spans files waits for the log line that
// ends the search (servers.json `workspaceScan.logPattern`), and says NOT_READY when it never comes.
// fixtures/late-scan-server logs "Found N source files" --scan-ms after `initialized`; before that
// its references list the open documents only.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, describe, expect, it } from 'vitest';

import { LspgateError } from '../../src/errors/errors.js';
import { Gateway } from '../../src/gateway/gateway.js';

const SERVER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/late-scan-server/server.mjs');

async function scanWorkspace(scanMs: string, requestMs: number): Promise<Gateway> {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-scan-')));
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-'));
  for (const f of ['a', 'b', 'c']) fs.writeFileSync(path.join(root, `${f}.scan`), 'function target() {}\n');
  const serversFile = path.join(cacheDir, 'servers.json');
  const server = {
    id: 'late-scan',
    languages: ['scan'],
    extensions: ['.scan'],
    command: process.execPath,
    args: [SERVER, `--scan-ms=${scanMs}`],
    install: 'fixtures/late-scan-server',
    adapter: 'generic',
    readiness: { kind: 'first-reply' },
    workspaceScan: { logPattern: '^Found \\d+ source files$' },
    timeouts: { requestMs },
  };
  fs.writeFileSync(serversFile, JSON.stringify({ servers: [server] }));
  const gateway = await Gateway.create({ root, cacheDir, serversFiles: [serversFile] });
  afterAll(async () => {
    await gateway.close();
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(cacheDir, { recursive: true, force: true });
  });
  return gateway;
}

const column = 'function target'.indexOf('target') + 1;

describe('a server that has not found its project files yet', async () => {
  const gateway = await scanWorkspace('3000', 30_000);

  it('find_references asked right after start waits for the scan and lists every file', async () => {
    const r = (await gateway.run('find_references', { file: 'a.scan', line: 1, column, output_format: 'json' })).result;
    expect((r.references as { file: string }[]).map((x) => x.file)).toEqual(['a.scan', 'b.scan', 'c.scan']);
    expect(r.total).toBe(3);
  });
});

describe('a server whose scan never ends', async () => {
  const gateway = await scanWorkspace('never', 1500);

  it('find_references is NOT_READY, never the open files alone', async () => {
    const err = await gateway.run('find_references', { file: 'a.scan', line: 1, column }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(LspgateError);
    expect((err as LspgateError).code).toBe('NOT_READY');
    expect((err as LspgateError).message).toMatch(
      /late-scan has not found its project's files yet .* textDocument\/references answer would cover open files only/,
    );
  });
});
