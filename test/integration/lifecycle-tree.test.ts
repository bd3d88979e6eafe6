/**
 * No process left behind, in every mode: each test starts a real typescript-language-server (and
 * its tsserver children) through a tool call, collects the whole process tree from /proc BEFORE
 * ending lspgate (SIGTERM, SIGINT, stdin EOF, a second signal, SIGKILL), then asserts every one of
 * those processes is gone.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';

import { connectHttp, RawMcpStdio } from '../helpers/mcp-client.js';
import {
  assertBuilt,
  commandLine,
  descendants,
  FAULT_SERVER,
  removeDir,
  type Spawned,
  spawnNode,
  tempDir,
  TEST_FRONTEND,
  TS_APP,
  waitFor,
  waitGone,
} from '../helpers/spawn.js';

type Mode = 'mcp' | 'sidecar' | 'repl' | 'mcp-http';
type Ending = 'SIGTERM' | 'SIGINT' | 'EOF' | 'SIGKILL';

const FILE = 'src/app.ts';
const cleanup: (() => void)[] = [];

afterEach(() => {
  for (const f of cleanup.splice(0)) f();
});

/** Starts lspgate in `mode` and makes it start the TypeScript server through a real call. */
async function startWithServer(mode: Mode): Promise<Spawned> {
  const cacheDir = tempDir();
  // info level: the tests read 'shutting down' from stderr to time a second signal.
  const proc = spawnNode(TEST_FRONTEND, [mode, '--root', TS_APP], { cacheDir, env: { LSPGATE_LOG: 'info' } });
  cleanup.push(() => {
    if (proc.child.exitCode === null && proc.child.signalCode === null) proc.child.kill('SIGKILL');
    removeDir(cacheDir);
  });
  if (mode === 'mcp') {
    const raw = new RawMcpStdio(proc.child);
    await raw.initialize();
    const r = await raw.callTool('start_server', { file: FILE });
    expect(r.isError).toBeFalsy();
  } else if (mode === 'sidecar') {
    const conn = createMessageConnection(new StreamMessageReader(proc.child.stdout!), new StreamMessageWriter(proc.child.stdin!));
    conn.listen();
    await conn.sendRequest('start_server', { file: FILE });
    // Stop listening without closing stdin: the ending under test decides how stdin ends.
    conn.dispose();
  } else if (mode === 'repl') {
    proc.child.stdin!.write(`.start_server --file ${FILE}\n`);
    await waitFor(() => proc.stdout().includes('typescript-language-server'), 'the start_server answer', 60_000);
  } else {
    await waitFor(() => /bearer token written to (\S+)/.test(proc.stderr()), 'the HTTP listener');
    const url = /listening on (http:\/\/\S+)/.exec(proc.stderr())![1]!;
    const { readFileSync } = await import('node:fs');
    const token = readFileSync(/bearer token written to (\S+)/.exec(proc.stderr())![1]!, 'utf8').trim();
    const client = await connectHttp(url, token);
    const r = await client.callTool({ name: 'start_server', arguments: { file: FILE } });
    expect(r.isError).toBeFalsy();
    await client.close();
  }
  return proc;
}

function end(proc: Spawned, how: Ending): void {
  if (how === 'EOF') proc.child.stdin!.end();
  else proc.child.kill(how);
}

const cases: [Mode, Ending, number | null][] = [
  ['mcp', 'SIGTERM', 143],
  ['mcp', 'EOF', 0],
  ['mcp', 'SIGKILL', null],
  ['sidecar', 'SIGTERM', 143],
  ['sidecar', 'EOF', 0],
  ['repl', 'SIGTERM', 143],
  ['repl', 'EOF', 0],
  ['mcp-http', 'SIGTERM', 143],
  ['mcp-http', 'SIGINT', 130],
];

describe('lspgate leaves no process behind', () => {
  it.each(cases)('%s ended by %s', async (mode, how, expectedCode) => {
    assertBuilt();
    const proc = await startWithServer(mode);
    const pid = proc.child.pid!;
    const tree = descendants(pid);
    const cmds = tree.map(commandLine);
    // The tree is real: the language server and its tsserver are in it.
    expect(cmds.some((c) => c.includes('typescript-language-server'))).toBe(true);
    expect(cmds.some((c) => c.includes('tsserver'))).toBe(true);

    end(proc, how);
    const { code, signal } = await proc.exited;
    if (how === 'SIGKILL') expect(signal).toBe('SIGKILL');
    else expect(code).toBe(expectedCode);
    // SIGKILL gives lspgate no chance: the servers must notice their parent is gone by themselves.
    const left = await waitGone(tree, how === 'SIGKILL' ? 20_000 : 10_000);
    expect(left.map((p) => `${p} ${commandLine(p)}`)).toEqual([]);
  });
});

describe('a second signal does not wait for a hanging shutdown', () => {
  it('kills the server process group and exits', async () => {
    assertBuilt();
    // A server that never answers shutdown and ignores SIGTERM, with a long shutdown budget:
    // the graceful close is stuck, so only the second-signal path can end it.
    const ws = tempDir('lspgate-fault-ws-');
    const cacheDir = tempDir();
    writeFileSync(path.join(ws, 'a.fault'), 'fault file\n');
    const servers = path.join(cacheDir, 'servers.json');
    writeFileSync(
      servers,
      JSON.stringify({
        servers: [
          {
            id: 'fault',
            languages: ['fault'],
            extensions: ['.fault'],
            command: process.execPath,
            args: [FAULT_SERVER, '--hang-shutdown'],
            readiness: { kind: 'first-reply' },
            timeouts: { startMs: 10000, readyMs: 10000, requestMs: 10000, shutdownMs: 120000 },
            install: 'fixtures/fault-server',
          },
        ],
      }),
    );
    const proc = spawnNode(TEST_FRONTEND, ['mcp', '--root', ws, '--servers', servers], { cacheDir, env: { LSPGATE_LOG: 'info' } });
    cleanup.push(() => {
      if (proc.child.exitCode === null && proc.child.signalCode === null) proc.child.kill('SIGKILL');
      removeDir(ws);
      removeDir(cacheDir);
    });
    const raw = new RawMcpStdio(proc.child);
    await raw.initialize();
    const r = await raw.callTool('start_server', { file: 'a.fault' });
    expect(r.isError).toBeFalsy();
    const tree = descendants(proc.child.pid!);
    expect(tree.map(commandLine).some((c) => c.includes('server.mjs'))).toBe(true);

    proc.child.kill('SIGTERM');
    await waitFor(() => proc.stderr().includes('shutting down: SIGTERM'), 'the graceful shutdown to begin');
    proc.child.kill('SIGTERM');
    const { code } = await proc.exited;
    expect(code).toBe(143);
    expect(proc.stderr()).toContain('SIGTERM again: killing language servers now');
    const left = await waitGone(tree, 10_000);
    expect(left.map((p) => `${p} ${commandLine(p)}`)).toEqual([]);
  });
});
