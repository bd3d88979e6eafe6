/**
 * Git runs under the watchdog. A clone that hangs (an https server that
 * accepts and never answers) must not outlive a SIGKILLed lspgate: before, `git clone` and its
 * `git remote-https` helper kept running.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { alive, descendants, waitFor } from '../../fixtures/fault-server/proc-utils.js';
import { assertBuilt, removeDir, REPO, tempDir } from '../helpers/spawn.js';

const sockets: net.Socket[] = [];
const server = net.createServer((s) => sockets.push(s)); // accepts, never answers
const leftovers: number[] = [];
let tmp: string | undefined;

afterAll(() => {
  for (const p of leftovers) {
    try {
      process.kill(p, 'SIGKILL');
    } catch {
      // gone, as it should be
    }
  }
  for (const s of sockets) s.destroy();
  server.close();
  if (tmp) removeDir(tmp);
});

function cmdline(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
}

describe('a clone in progress when lspgate is SIGKILLed', () => {
  it('leaves no git process behind', async () => {
    assertBuilt();
    tmp = tempDir();
    const port = await new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)));
    const host = spawn(process.execPath, [path.join(REPO, 'fixtures/fault-server/clone-host.mjs'), `https://127.0.0.1:${port}/repo.git`, tmp], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve) => host.stdout!.once('data', () => resolve()));
    // the clone has reached the server once a connection is open
    expect(await waitFor(() => sockets.length > 0, 20_000)).toBe(true);
    const gits = descendants(host.pid!).filter((p) => /\bgit\b/.test(cmdline(p)) && !/node/.test(cmdline(p).split(' ')[0]!));
    leftovers.push(...descendants(host.pid!));
    expect(gits.length).toBeGreaterThan(0);
    process.kill(host.pid!, 'SIGKILL');
    expect(await waitFor(() => gits.every((p) => !alive(p)), 5000)).toBe(true);
  });
});
