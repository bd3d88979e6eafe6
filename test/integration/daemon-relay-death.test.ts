/**
 * The daemon dies under a thin `lspgate mcp`: the request the MCP client is waiting for is
 * answered with a JSON-RPC error (DAEMON_FAILED), stderr says what happened, and the client exits
 * with status 1 — it never hangs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daemonStatus, daemonWorld, faultServersUnder, type DaemonWorld } from '../helpers/daemon.js';
import { assertBuilt, isAlive, removeDir, waitFor, type Spawned } from '../helpers/spawn.js';
import { mcpThin, startLoggingDaemon } from '../helpers/thin.js';

describe('a thin mcp client when the daemon dies', () => {
  let w: DaemonWorld;
  let daemon: Spawned;

  beforeAll(async () => {
    assertBuilt();
    w = daemonWorld(['--slow-on=textDocument/definition', '--slow-ms=5000']);
    daemon = await startLoggingDaemon(w);
  });

  afterAll(() => {
    if (daemon.child.exitCode === null) daemon.child.kill('SIGKILL');
    removeDir(w.base);
  });

  it('answers the waiting request with DAEMON_FAILED and exits 1', async () => {
    const c = await mcpThin(w, w.ws);
    const exited = new Promise<number | null>((resolve) => c.transport.onclose = () => resolve(null));
    const call = c.client.callTool({ name: 'find_definition', arguments: { symbol: 'FaultSymbol' } }).then(
      () => 'answered',
      (e: unknown) => e as Error & { code?: number },
    );
    for (;;) {
      const s = await daemonStatus(w);
      if (s?.clients.some((x) => x.running_requests > 0)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const servers = faultServersUnder(daemon.child.pid!);
    daemon.child.kill('SIGKILL');
    const err = await call;
    expect(err).not.toBe('answered');
    expect((err as Error).message).toContain('the lspgate daemon closed the connection');
    expect((err as { code?: number }).code).toBe(-32040);
    await exited;
    await waitFor(() => !isAlive(c.pid), 'the client to exit');
    expect(c.stderr()).toContain('lspgate: the lspgate daemon closed the connection');
    // the daemon's servers do not outlive it (their reaper watchdogs)
    await waitFor(() => servers.every((p) => !isAlive(p)), 'the fault server to end');
  });
});
