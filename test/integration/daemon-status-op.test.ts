/**
 * Daemon_status in a process of its own (no daemon): `daemon: false` and this
 * process's sessions (a real fault-server process), with pid, state and the RSS of its tree.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { faultEntry } from '../../fixtures/fault-server/entry.js';
import { Gateway } from '../../src/gateway/gateway.js';
import type { DaemonStatusAnswer } from '../helpers/results.js';

describe('daemon_status without a daemon', () => {
  const tmp: string[] = [];
  let gateway: Gateway | undefined;
  afterAll(async () => {
    await gateway?.close();
    for (const d of tmp) fs.rmSync(d, { recursive: true, force: true });
  });

  it('answers daemon: false with the sessions of this process', async () => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-dstatus-')));
    const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-cache-'));
    tmp.push(root, cacheDir);
    fs.writeFileSync(path.join(root, 'a.fault'), 'FaultSymbol a\n');
    const serversFile = path.join(cacheDir, 'servers.json');
    fs.writeFileSync(serversFile, JSON.stringify({ servers: [faultEntry([])] }));
    gateway = await Gateway.create({ root, cacheDir, serversFiles: [serversFile] });
    const g = gateway;
    const status = async () => (await g.run('daemon_status', { output_format: 'json' })).result as unknown as DaemonStatusAnswer;

    const before = await status();
    expect(before.daemon).toBe(false);
    expect(before.sessions).toEqual([]);
    expect(before.pid).toBeUndefined();
    await g.run('find_definition', { file: 'a.fault', line: 1, column: 2 });
    const r = await status();
    expect(r.daemon).toBe(false);
    expect(r.clients).toBeUndefined();
    expect(r.sessions).toHaveLength(1);
    expect(r.sessions[0]).toMatchObject({ server: 'fault', root, state: 'ready', generation: 1, crashes: 0 });
    expect(r.sessions[0]!.pid).toBeGreaterThan(0);
    expect(r.sessions[0]!.rss_bytes).toBeGreaterThan(0);
    const md = (await g.run('daemon_status', {})).text;
    expect(md).toContain('No daemon');
    expect(md).toContain(`fault @ ${root}: ready pid ${r.sessions[0]!.pid}`);
  });
});
