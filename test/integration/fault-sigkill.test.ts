import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterEach, beforeAll, describe, expect, it } from 'vitest';

import { faultWorkspace } from '../../fixtures/fault-server/entry.js';
import { alive, descendants, groupMembers, waitFor } from '../../fixtures/fault-server/proc-utils.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
const host = path.join(repo, 'fixtures/fault-server/host.mjs');
const tinyTs = fs.realpathSync(path.join(here, '../fixtures-local/tiny-ts'));

/** Starts the host, waits for the server's group id on its stdout. */
function startHost(args: string[]): Promise<{ hostPid: number; serverPid: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [host, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve({ hostPid: child.pid!, serverPid: (JSON.parse(line) as { pid: number }).pid });
    });
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) => reject(new Error(`host exited ${code}: ${err}`)));
  });
}

describe('servers die with lspgate even when it is SIGKILLed', () => {
  let ws: ReturnType<typeof faultWorkspace> | undefined;
  const leftovers: number[] = [];
  beforeAll(() => {
    if (!fs.existsSync(path.join(repo, 'dist/src/broker/broker.js')) || !fs.existsSync(path.join(repo, 'dist/fixtures/fault-server/entry.js'))) {
      throw new Error('build first: npx tsc -p . (the host process runs the compiled broker)');
    }
  });
  afterEach(() => {
    for (const p of leftovers.splice(0)) {
      try {
        process.kill(p, 'SIGKILL');
      } catch {
        // already gone, as it should be
      }
    }
    ws?.cleanup();
  });

  it('fault server that ignores stdin EOF: gone within seconds of the host SIGKILL', async () => {
    ws = faultWorkspace();
    const { hostPid, serverPid } = await startHost(['fault', ws.root, ws.file, ws.cacheDir]);
    const tree = [serverPid, ...descendants(serverPid)];
    leftovers.push(...tree);
    expect(tree.length).toBeGreaterThanOrEqual(2);
    expect(tree.every(alive)).toBe(true);
    process.kill(hostPid, 'SIGKILL');
    expect(await waitFor(() => tree.every((p) => !alive(p)) && groupMembers(serverPid).length === 0, 5000)).toBe(true);
  });

  it('typescript-language-server and its tsserver children: gone within seconds of the host SIGKILL', async () => {
    ws = faultWorkspace();
    const { hostPid, serverPid } = await startHost(['ts', tinyTs, path.join(tinyTs, 'src/shapes.ts'), ws.cacheDir]);
    const tree = [serverPid, ...descendants(serverPid)];
    leftovers.push(...tree);
    expect(tree.length).toBeGreaterThanOrEqual(3);
    process.kill(hostPid, 'SIGKILL');
    expect(await waitFor(() => tree.every((p) => !alive(p)), 5000)).toBe(true);
  });
});
