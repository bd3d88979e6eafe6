/**
 * The daemon dies under a thin `lspgate mcp`: the request the MCP client is waiting for is
 * answered with a JSON-RPC error (DAEMON_FAILED) — it never hangs — and the client starts a new
 * daemon, attaches again and replays its initialize: the same MCP session goes on answering.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { daemonStatus, type DaemonWorld, daemonWorld, faultServersUnder, stopDaemon } from '../helpers/daemon.js';
import { textOf } from '../helpers/mcp-client.js';
import { assertBuilt, isAlive, removeDir, type Spawned, waitFor } from '../helpers/spawn.js';
import { type McpThin, mcpThin, startLoggingDaemon } from '../helpers/thin.js';

describe('a thin mcp client when the daemon dies', () => {
  let w: DaemonWorld;
  let daemon: Spawned;
  let c: McpThin | undefined;

  beforeAll(async () => {
    assertBuilt();
    w = daemonWorld(['--slow-on=textDocument/definition', '--slow-ms=5000']);
    daemon = await startLoggingDaemon(w);
  });

  afterAll(async () => {
    await c?.client.close().catch(() => undefined);
    if (daemon.child.exitCode === null) daemon.child.kill('SIGKILL');
    await stopDaemon(w);
    removeDir(w.base);
  });

  it('answers the waiting request with DAEMON_FAILED, then goes on through a new daemon', async () => {
    c = await mcpThin(w, w.ws);
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
    // the daemon's servers do not outlive it (their reaper watchdogs)
    await waitFor(() => servers.every((p) => !isAlive(p)), 'the fault server to end');
    // the same MCP session, on a daemon the client started
    const outline = await c.client.callTool({ name: 'get_file_outline', arguments: { file: 'a.fault' } });
    expect(textOf(outline)).toContain('FaultSymbol');
    const s = (await daemonStatus(w))!;
    expect(s.pid).not.toBe(daemon.child.pid);
    expect(s.clients.map((x) => x.pid)).toEqual([c.pid]);
    expect(c.stderr()).toContain('lspgate: the lspgate daemon closed the connection; attached again');
    expect(isAlive(c.pid)).toBe(true);
  });
});
