/**
 * The bearer token `lspgate mcp --http` generates is written to a 0600 file while the server runs,
 * and removed when it exits: on SIGTERM and SIGINT (the graceful close), and on a second signal
 * that does not wait for it. A token of a server that is gone must not stay on disk.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { assertBuilt, CLI, removeDir, REPO, spawnNode, tempDir, waitFor } from '../helpers/spawn.js';

const cacheDir = tempDir();
const root = tempDir('lspgate-token-');
afterAll(() => {
  removeDir(cacheDir);
  removeDir(root);
});

async function started(): Promise<{ proc: ReturnType<typeof spawnNode>; file: string }> {
  const proc = spawnNode(CLI, ['mcp', '--tools', 'all', '--http', '--port', '0', '--root', root, '--daemon', 'off'], {
    cacheDir,
    cwd: REPO,
    env: { LSPGATE_TOKEN: '' },
  });
  await waitFor(() => /bearer token written to (\S+)/.test(proc.stderr()), 'the token line');
  const file = /bearer token written to (\S+)/.exec(proc.stderr())![1]!;
  expect(path.dirname(file)).toBe(path.join(cacheDir, 'http'));
  expect(statSync(file).mode & 0o777).toBe(0o600);
  return { proc, file };
}

describe('the HTTP bearer token file', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('is removed when the server exits on %s', async (signal) => {
    assertBuilt();
    const { proc, file } = await started();
    proc.child.kill(signal);
    // the graceful close's own status, not a death by the signal (which runs no exit handler)
    expect(await proc.exited).toEqual({ code: signal === 'SIGTERM' ? 143 : 130, signal: null });
    expect(existsSync(file)).toBe(false);
  });

  it('is removed on a second signal, which does not wait for the graceful close', async () => {
    const { proc, file } = await started();
    proc.child.kill('SIGTERM');
    proc.child.kill('SIGTERM');
    await proc.exited;
    expect(existsSync(file)).toBe(false);
  });
});
