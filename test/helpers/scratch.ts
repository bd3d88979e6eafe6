/**
 * A fixture copied into a temp directory, for tests that edit files on disk (diagnostics
 * freshness, rename apply): the checked-in fixture is never written. Closed after the test file.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll } from 'vitest';

import { Gateway } from '../../src/gateway/gateway.js';
import { type FixtureGateway, fixtureGateway, FIXTURES } from './gateway.js';

export interface ScratchFixture extends FixtureGateway {
  write(rel: string, text: string): void;
  read(rel: string): string;
}

/** `extra` files (relative path → text) are written into the copy before the gateway starts. */
/** `serversFiles`: extra servers.json files (the user's, as `--servers`), relative to the copy's root. */
export async function openScratch(name: string, extra: Record<string, string> = {}, opts: { serversFiles?: string[] } = {}): Promise<ScratchFixture> {
  const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `lspgate-${name}-`)));
  const root = path.join(tmp, name);
  fs.cpSync(path.join(FIXTURES, name), root, { recursive: true });
  for (const [rel, text] of Object.entries(extra)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  const cacheDir = path.join(tmp, 'cache');
  const gateway = await Gateway.create({ root, cacheDir, ...(opts.serversFiles ? { serversFiles: opts.serversFiles.map((f) => path.join(root, f)) } : {}) });
  afterAll(async () => {
    await gateway.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });
  return {
    ...fixtureGateway(gateway, root, cacheDir),
    write: (rel, text) => fs.writeFileSync(path.join(root, rel), text),
    read: (rel) => fs.readFileSync(path.join(root, rel), 'utf8'),
  };
}
