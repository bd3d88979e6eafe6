/**
 * A spawned `lspgate sidecar` fed broken framing answers a JSON-RPC parse
 * error (-32700, id null), logs the reason on stderr and exits 1, instead of jamming silently —
 * in-process, and as a thin client relaying to the daemon (where the daemon's sidecar answers, and
 * the relay says why on its own stderr and ends even with megabytes of junk still queued).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type Message, StreamMessageReader } from 'vscode-jsonrpc/node';

import { assertBuilt, CLI, removeDir, runCli, type Spawned, spawnNode, tempDir, TS_APP } from '../helpers/spawn.js';

const valid = (() => {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'list_workspaces', params: {} });
  return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
})();

let proc: Spawned | undefined;
let cacheDir: string | undefined;
let env: Record<string, string> = {};
afterEach(async () => {
  if (proc && proc.child.exitCode === null) proc.child.kill('SIGKILL');
  await proc?.exited;
  if (cacheDir && env.LSPGATE_DAEMON) await runCli(['daemon', 'stop'], { cacheDir, env });
  if (cacheDir) removeDir(cacheDir);
});

// no XDG_RUNTIME_DIR: the daemon's socket lives in the test's cache directory
describe.each([
  ['in-process', { LSPGATE_DAEMON: 'off' }],
  ['through the daemon', { LSPGATE_DAEMON: 'require', XDG_RUNTIME_DIR: '' }],
])('sidecar (%s) after bad framing from its client', (_mode, modeEnv) => {
  it.each([
    ['a non-numeric Content-Length', 'Content-Length: lots\r\n\r\n{}'],
    ['a negative Content-Length', 'Content-Length: -5\r\n\r\n{}'],
    ['a header without Content-Length', 'Content-Type: application/json\r\n\r\n{}'],
    ['a 100 MB announced length', 'Content-Length: 104857600\r\n\r\n{"jsonrpc":'],
    ['20 MB of header junk', 'X'.repeat(20 * 1024 * 1024)],
  ])('%s: -32700 with id null, the reason on stderr, exit 1', { timeout: 60_000 }, async (_what, junk) => {
    assertBuilt();
    cacheDir = tempDir();
    env = modeEnv;
    proc = spawnNode(CLI, ['sidecar', '--root', TS_APP], { cacheDir, env, stdio: ['pipe', 'pipe', 'pipe'] });
    const reader = new StreamMessageReader(proc.child.stdout!);
    const first = new Promise<Message>((resolve) => reader.listen(resolve));
    proc.child.stdin!.on('error', () => undefined); // it may close before all the junk is written
    proc.child.stdin!.write(junk);
    proc.child.stdin!.write(valid);
    const msg = (await first) as unknown as { id: unknown; error?: { code: number; message: string } };
    expect(msg.id).toBeNull();
    expect(msg.error?.code).toBe(-32700);
    const { code } = await proc.exited;
    expect(code).toBe(1);
    expect(proc.stderr()).toMatch(/broke the message framing/);
  });
});
