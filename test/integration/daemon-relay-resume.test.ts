/**
 * What a thin `lspgate mcp` session keeps when its daemon dies: the client's resource
 * subscriptions and log level are replayed on the new daemon, so after the resume a change to a
 * subscribed file still sends `notifications/resources/updated`, and the level the client set
 * (error) still holds: a crashing server's error event arrives, the info-level starts do not.
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { outlineUri } from '../../src/frontends/mcp/resources.js';
import { daemonStatus, type DaemonWorld, daemonWorld, stopDaemon } from '../helpers/daemon.js';
import { assertBuilt, removeDir, type Spawned, waitFor } from '../helpers/spawn.js';
import { type McpThin, mcpThin, startLoggingDaemon } from '../helpers/thin.js';

interface LogMessage {
  level: string;
  logger?: string;
  data: unknown;
}

describe('a thin mcp session resumed on a new daemon', () => {
  let w: DaemonWorld;
  let daemon: Spawned;
  let c: McpThin | undefined;

  beforeAll(async () => {
    assertBuilt();
    w = daemonWorld(['--crash-on=textDocument/definition']);
    writeFileSync(path.join(w.ws, 'b.fault'), 'another file\n');
    daemon = await startLoggingDaemon(w);
  });

  afterAll(async () => {
    await c?.client.close().catch(() => undefined);
    if (daemon.child.exitCode === null) daemon.child.kill('SIGKILL');
    await stopDaemon(w);
    removeDir(w.base);
  });

  it('keeps its resource subscriptions and log level', async () => {
    c = await mcpThin(w, w.ws);
    const messages: LogMessage[] = [];
    const updated: string[] = [];
    c.client.setNotificationHandler('notifications/message', (n) => void messages.push(n.params as LogMessage));
    c.client.setNotificationHandler('notifications/resources/updated', (n) => void updated.push(n.params.uri));
    const listed = await c.client.callTool({ name: 'list_workspaces', arguments: {} });
    const wsId = (listed.structuredContent as { workspaces: { id: string }[] }).workspaces[0]!.id;
    const uri = outlineUri(wsId, 'a.fault');
    await c.client.setLoggingLevel('error');
    await c.client.subscribeResource({ uri });
    // a subscription the client dropped is not replayed
    const dropped = outlineUri(wsId, 'b.fault');
    await c.client.subscribeResource({ uri: dropped });
    await c.client.unsubscribeResource({ uri: dropped });

    daemon.child.kill('SIGKILL');
    // the client attaches again at once (it starts the daemon)
    await waitFor(() => c!.stderr().includes('attached again'), 'the client to attach again', 60_000);
    const s = (await daemonStatus(w))!;
    expect(s.pid).not.toBe(daemon.child.pid);
    expect(c.stderr()).toContain("replayed the session's initialize, log level error, 1 resource subscription(s)");
    const mark = messages.length;

    // The file changes until the replayed watch reports it (the replay's subscribe reads the outline first).
    for (let i = 0; i < 20 && !updated.includes(uri); i++) {
      appendFileSync(path.join(w.ws, 'a.fault'), `line ${i}\n`);
      await new Promise((r) => setTimeout(r, 1000));
    }
    expect(updated).toContain(uri);
    updated.length = 0;
    appendFileSync(path.join(w.ws, 'b.fault'), 'changed\n');
    await new Promise((r) => setTimeout(r, 1000));
    expect(updated).not.toContain(dropped);

    // The server crashes on definition: an error-level lifecycle event; its starts (info) stay below the level.
    await c.client.callTool({ name: 'find_definition', arguments: { symbol_id: 'a.fault::FaultSymbol#class' } }).catch(() => undefined);
    await waitFor(() => messages.slice(mark).some((m) => m.level === 'error' && m.logger === 'lspgate:servers'), 'the crash event');
    expect(messages.slice(mark).filter((m) => m.level !== 'error')).toEqual([]);
    expect(c.stderr()).not.toContain('refused the replayed');
  });
});
