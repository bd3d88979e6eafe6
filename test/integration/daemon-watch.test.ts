/**
 * A front-end in a client process (MCP over HTTP attached to the daemon) reaches a workspace's
 * change feed over the daemon's socket: RemoteGateway.watchFile asks the daemon (lspgate/watchFile),
 * which listens on the client's view of the workspace's catalog feed and answers each change with a
 * notification — no watcher in the client, no list_repos round trip. A watch names its workspace
 * and file as operations do, and is refused with their codes. Real daemon and fault server in a
 * private XDG_RUNTIME_DIR.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { connect } from '../../src/frontends/daemon-client/client.js';
import { RemoteGateway } from '../../src/frontends/daemon-client/remote-gateway.js';
import { createLogger } from '../../src/util/logger.js';
import { type DaemonWorld, daemonWorld, sidecarClient } from '../helpers/daemon.js';
import { endWorld } from '../helpers/daemon-procs.js';
import { assertBuilt, type Spawned, waitFor } from '../helpers/spawn.js';

describe('file watches through the daemon', () => {
  let w: DaemonWorld;
  let proc: Spawned;

  beforeAll(async () => {
    assertBuilt();
    w = daemonWorld([]);
    // a sidecar client starts the daemon
    const a = sidecarClient(w);
    proc = a.proc;
    await a.conn.sendRequest('list_workspaces', {});
  }, 60_000);

  afterAll(async () => {
    if (proc?.child.exitCode === null) proc.child.kill('SIGKILL');
    // endWorld waits until no process of the world is left before removing it
    await endWorld(w);
  });

  it('a client hears of each change of a watched file, and is refused what operations refuse', async () => {
    const socket = await connect(w.socket);
    expect(socket).toBeDefined();
    const remote = RemoteGateway.open(socket!, w.ws, createLogger('test', 'error'), w.cacheDir);
    await remote.attach('mcp-http');
    try {
      let heard = 0;
      const off = await remote.watchFile(undefined, 'a.fault', () => heard++);
      writeFileSync(path.join(w.ws, 'a.fault'), 'fault file\nchanged on disk\n');
      await waitFor(() => heard > 0, 'lspgate/fileChanged for a.fault');
      off();
      await expect(remote.watchFile('no-such-workspace', 'a.fault', () => undefined)).rejects.toMatchObject({ code: 'WORKSPACE_NOT_FOUND' });
      await expect(remote.watchFile(undefined, '../outside.fault', () => undefined)).rejects.toMatchObject({ code: 'PATH_OUTSIDE_WORKSPACE' });
    } finally {
      await remote.close();
    }
  }, 60_000);
});
