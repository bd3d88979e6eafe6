/**
 * A memory budget for all server process trees (limits.serverMemoryMb). Two
 * languages (two fault-server entries, real processes) under a 1 MiB budget that any server is
 * over: the least recently used session is shut down (never the one used last, never one with a
 * request in flight), list_workspaces shows it `evicted` with the RSS it had and the RSS of the
 * running one, and the next request for it starts it again, says so in its progress, and answers.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { faultEntry } from '../../fixtures/fault-server/entry.js';
import { alive } from '../../fixtures/fault-server/proc-utils.js';
import { relayProgress } from '../../src/frontends/server-progress.js';
import { Gateway } from '../../src/gateway/gateway.js';
import type { ProgressUpdate } from '../../src/operations/types.js';
import type { WorkspaceInfo } from '../helpers/results.js';

type Server = WorkspaceInfo['servers'][number];

async function until<T>(get: () => Promise<T>, ok: (v: T) => boolean, what: string): Promise<T> {
  for (let i = 0; ; i++) {
    const v = await get();
    if (ok(v)) return v;
    if (i > 600) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('memory budget', () => {
  const tmp: string[] = [];
  let gateway: Gateway | undefined;
  afterEach(async () => {
    await gateway?.close();
    for (const d of tmp.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });

  it('evicts the least recently used idle session; a later request starts it again and answers', async () => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-mem-')));
    const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-cache-'));
    tmp.push(root, cacheDir);
    fs.writeFileSync(path.join(root, 'a.fault'), 'FaultSymbol a\n');
    fs.writeFileSync(path.join(root, 'b.fault2'), 'FaultSymbol b\n');
    const serversFile = path.join(cacheDir, 'servers.json');
    const two = { id: 'fault2', languages: ['fault2'], extensions: ['.fault2'] };
    fs.writeFileSync(serversFile, JSON.stringify({ servers: [faultEntry([]), faultEntry(['--slow-on=textDocument/hover', '--slow-ms=4000'], two)] }));
    gateway = await Gateway.create({ root, cacheDir, serversFiles: [serversFile], limits: { serverMemoryMb: 1 } });
    const g = gateway;
    const servers = async () => ((await g.run('list_workspaces', { output_format: 'json' })).result.workspaces as WorkspaceInfo[])[0]!.servers;
    const one = (list: Server[], id: string) => list.find((s) => s.id === id);
    const def = async (file: string) => JSON.stringify((await g.run('find_definition', { file, line: 1, column: 2, output_format: 'json' })).result);

    expect(await def('a.fault')).toContain('FaultSymbol');
    const firstPid = one(await servers(), 'fault')!.pid!;
    expect(await def('b.fault2')).toContain('FaultSymbol');
    // fault is the least recently used: it goes; fault2 (used last) stays, whatever it weighs
    const after = await until(servers, (l) => one(l, 'fault')?.state === 'evicted', 'fault evicted');
    expect(one(after, 'fault')).toMatchObject({ state: 'evicted', root });
    expect(one(after, 'fault')!.rss_bytes).toBeGreaterThan(1024 * 1024);
    expect(one(after, 'fault2')).toMatchObject({ state: 'ready' });
    expect(one(after, 'fault2')!.rss_bytes).toBeGreaterThan(1024 * 1024);
    await until(
      async () => alive(firstPid),
      (a) => !a,
      'the evicted server to exit',
    );

    // fault2 has a request in flight (hover, answered after 4 s): though least recently used once
    // fault is back (the budget is checked when a server has started), it is not evicted while that runs
    const fault2 = g.context.broker.existing().find((s) => s.serverId === 'fault2')!;
    const uri = `file://${path.join(root, 'b.fault2')}`;
    const hover = fault2.requestRaw('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 1 } }).catch((e: Error) => e);
    const updates: ProgressUpdate[] = [];
    const relay = relayProgress(g.context.broker, (p) => updates.push(p));
    try {
      expect(await def('a.fault')).toContain('FaultSymbol');
    } finally {
      relay.dispose();
    }
    expect(updates.map((u) => u.message).join('\n')).toMatch(/fault: starting.*evicted \d+ s ago under the memory budget: starting it again/);
    const back = one(await servers(), 'fault')!;
    expect(back.state).toBe('ready');
    expect(back.pid).not.toBe(firstPid);
    expect(one(await servers(), 'fault2')!.state).not.toBe('evicted');
    expect(await hover).not.toBeInstanceOf(Error);
    // the hover done, fault2 is idle and least recently used: now it goes
    const last = await until(servers, (l) => one(l, 'fault2')?.state === 'evicted', 'fault2 evicted');
    expect(one(last, 'fault')!.state).toBe('ready');
  });
});
