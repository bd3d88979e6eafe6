/**
 * A semantic question by name waits for its server within the caller's bound (`wait_ms`): past it
 * NOT_READY says what is loading (server, state, open progress with its percentage, for how long,
 * how long the call waited) while the load goes on in the background, and the same question asked
 * once the server is ready answers. Progress reaches an MCP client that sent a progressToken. The
 * stand-in `.ts` server is the fault server (a real process) whose "Indexing fault" progress never
 * ends until the test ends it (`fault/end-progress`), or, for the CLI through the daemon, ends 8 s
 * after start: far above the 500 ms bound on any machine, and no assertion reads a clock. The name
 * resolves from the parse-tree catalog of the `.ts` file: nothing waits for a whole-workspace pass.
 */
import fs from 'node:fs';
import path from 'node:path';

import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { faultEntry } from '../../fixtures/fault-server/entry.js';
import { Gateway } from '../../src/gateway/gateway.js';
import type { LspSession } from '../../src/lsp/types.js';
import { daemonStatus, type DaemonWorld, daemonWorld, stopDaemon } from '../helpers/daemon.js';
import { connectInProcess } from '../helpers/mcp-client.js';
import { runInPty } from '../helpers/pty.js';
import { assertBuilt, CLI, removeDir, runCli, type Spawned, tempDir, waitFor, waitGone } from '../helpers/spawn.js';
import { startLoggingDaemon } from '../helpers/thin.js';

const SOURCE = 'export function greet(): number {\n  return 1;\n}\n\nexport const answer = greet();\n';
const INDEXING = { languages: ['typescript'], extensions: ['.ts'], readiness: { kind: 'progress' as const, titlePattern: '^Indexing fault' } };

const TS_OFF = { id: 'typescript-language-server', enabled: false };

type ToolResult = { isError?: boolean; content: { type: string; text?: string }[]; structuredContent?: Record<string, unknown> };
type Progress = { progress: number; total?: number; message?: string };

function errorOf(r: ToolResult): { code: string; error: string; details: Record<string, unknown> } {
  expect(r.isError, JSON.stringify(r)).toBe(true);
  return JSON.parse(r.content[0]!.text!) as { code: string; error: string; details: Record<string, unknown> };
}

describe('waiting for a server within wait_ms (MCP)', () => {
  const dirs: string[] = [];
  let gateway: Gateway;
  let client: Client;
  let close: () => Promise<void>;

  beforeAll(async () => {
    const root = fs.realpathSync(tempDir('lspgate-wait-'));
    const cacheDir = tempDir('lspgate-wait-cache-');
    dirs.push(root, cacheDir);
    fs.writeFileSync(path.join(root, 'a.ts'), SOURCE);
    const serversFile = path.join(cacheDir, 'servers.json');
    const entry = faultEntry(['--progress-never-ends', '--progress-report=30'], { ...INDEXING, timeouts: { readyMs: 120_000 } });
    // the fault server stands in for the shipped TypeScript server on this .ts file
    fs.writeFileSync(serversFile, JSON.stringify({ servers: [entry, TS_OFF] }));
    gateway = await Gateway.create({ root, cacheDir, serversFiles: [serversFile] });
    ({ client, close } = await connectInProcess(gateway));
  });

  afterAll(async () => {
    await close?.();
    await gateway?.close();
    for (const d of dirs) removeDir(d);
  });

  const session = (): LspSession | undefined => gateway.context.broker.existing()[0];
  const ask = (args: Record<string, unknown>, progress: Progress[] = []) =>
    client.callTool(
      { name: 'find_definition', arguments: { symbol: 'greet', output_format: 'json', ...args } },
      { onprogress: (p: Progress) => progress.push(p) },
    ) as Promise<ToolResult>;

  it('answers NOT_READY past the bound while the server loads, with progress meanwhile, and answers once it is ready', async () => {
    // The first question starts the server: the bound passes long before its indexing ends.
    const first = errorOf(await ask({ wait_ms: 500 }));
    expect(first.code).toBe('NOT_READY');
    expect(first.details).toMatchObject({ server: 'fault', wait_ms: 500, retry: true });
    expect(['starting', 'indexing']).toContain(first.details.state);
    expect(typeof first.details.waited_ms).toBe('number');
    expect(first.error).toMatch(/ask again later/);

    // The load went on: the same process reports its indexing, with the percentage it gave.
    await waitFor(() => session()?.state === 'indexing' && session()!.info().progress.length > 0, 'the server indexing');
    const { pid, generation } = session()!.info();
    const progress: Progress[] = [];
    const second = errorOf(await ask({ wait_ms: 500 }, progress));
    expect(second.code).toBe('NOT_READY');
    expect(second.details).toMatchObject({ server: 'fault', state: 'indexing', progress: ['Indexing fault: 3/10 files (30%)'] });
    expect(typeof second.details.loading_ms).toBe('number');
    expect(second.error).toContain('Indexing fault: 3/10 files (30%)');
    // a client that sent a progressToken heard what the call waited for
    expect(
      progress.some((p) => p.message?.includes('fault: indexing') && p.message.includes('(30%)') && p.total! > 0),
      JSON.stringify(progress),
    ).toBe(true);
    // NOT_READY neither cancelled nor restarted the load
    expect(session()!.info()).toMatchObject({ pid, generation, state: 'indexing' });

    // Loaded: the same question answers, from the same server process.
    await session()!.requestRaw('fault/end-progress', {});
    await waitFor(() => session()?.state === 'ready', 'the server ready');
    const answer = await ask({});
    expect(answer.isError, JSON.stringify(answer)).toBeFalsy();
    expect(answer.structuredContent).toMatchObject({ found: true, definitions: [{ file: 'a.ts', line: 1 }] });
    expect(session()!.info()).toMatchObject({ pid, generation });
  });
});

describe('a name waits for the parse trees, not for a server catalog of the whole workspace', () => {
  const dirs: string[] = [];
  let gateway: Gateway | undefined;
  afterAll(async () => {
    await gateway?.close();
    for (const d of dirs) removeDir(d);
  });

  it('answers a definition by name while a language without a grammar is still being cataloged by its server', { timeout: 120_000 }, async () => {
    const root = fs.realpathSync(tempDir('lspgate-wait-pass-'));
    const cacheDir = tempDir('lspgate-wait-pass-cache-');
    dirs.push(root, cacheDir);
    fs.writeFileSync(path.join(root, 'a.ts'), SOURCE);
    fs.writeFileSync(path.join(root, 'b.fault'), 'FaultSymbol here\n');
    const serversFile = path.join(cacheDir, 'servers.json');
    // .fault has no grammar: its server catalogs it, and holds that documentSymbol until released
    // (with no timeout that could end it while the test runs); the .ts file has its own stand-in server
    const held = faultEntry(['--hold-symbols=b.fault'], { timeouts: { requestMs: 600_000 } });
    const ts = faultEntry([], { id: 'fault-ts', languages: ['typescript'], extensions: ['.ts'] });
    fs.writeFileSync(serversFile, JSON.stringify({ servers: [held, ts, TS_OFF] }));
    gateway = await Gateway.create({ root, cacheDir, serversFiles: [serversFile] });
    const faultSession = () => gateway!.context.broker.existing().find((s) => s.serverId === 'fault');

    // the question starts the build; the parse trees hold the name: it answers with the .fault file still held
    const r = await gateway.run('find_definition', { symbol: 'greet', output_format: 'json' });
    expect(r.result).toMatchObject({ found: true, definitions: [{ file: 'a.ts', line: 1 }] });
    // the held request may still be queued behind the server's start: it reaches the server, and stays unanswered
    const stats = async () => (await faultSession()!.requestRaw('fault/stats', {})) as { held: number; answered: string[] };
    for (let i = 0; !faultSession() || (await stats()).held < 1; i++) {
      if (i > 1500) throw new Error('the .fault documentSymbol never reached its server');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect((await stats()).answered.filter((a) => a.includes('b.fault'))).toEqual([]);

    // a name only that server's catalog holds waits for it, and answers once it is released
    const late = gateway.run('find_definition', { symbol: 'FaultSymbol', output_format: 'json' });
    await faultSession()!.requestRaw('fault/release', {});
    expect((await late).result).toMatchObject({ found: true, definitions: [{ file: 'b.fault' }] });
  });
});

describe('waiting for a server within wait_ms (CLI through the daemon)', () => {
  let w: DaemonWorld;
  let daemon: Spawned;

  beforeAll(async () => {
    assertBuilt();
    // indexing ends 8 s after the server starts: sixteen times the bound the first call sets
    w = daemonWorld(['--progress=8000'], {}, { ...INDEXING, timeouts: { startMs: 60_000, readyMs: 120_000, requestMs: 30_000, shutdownMs: 1_000, idleMs: 0 } });
    fs.writeFileSync(path.join(w.ws, 'a.ts'), SOURCE);
    const serversFile = path.join(w.base, 'cfg', 'lspgate', 'servers.json');
    const servers = JSON.parse(fs.readFileSync(serversFile, 'utf8')) as { servers: unknown[] };
    fs.writeFileSync(serversFile, JSON.stringify({ servers: [...servers.servers, TS_OFF] }));
    daemon = await startLoggingDaemon(w);
  });

  afterAll(async () => {
    await stopDaemon(w);
    await daemon?.exited;
    removeDir(w.base);
  });

  it('prints NOT_READY with what is loading, then the answer to the same question once loaded', async () => {
    const args = ['find_definition', '--symbol', 'greet', '--root', w.ws, '--daemon', 'require'];
    const early = await runCli([...args, '--wait_ms', '500'], { cacheDir: w.cacheDir, env: w.env });
    expect(early.code, early.stderr).toBe(1);
    expect(early.stdout).toBe('');
    expect(early.stderr).toMatch(/^NOT_READY: fault is still (starting|loading the project)/);
    expect(early.stderr).toContain('"server": "fault"');
    expect(early.stderr).toContain('"wait_ms": 500');
    // without --wait_ms the CLI waits for the server's own readiness budget: the load the first call began ends
    const later = await runCli(args, { cacheDir: w.cacheDir, env: w.env });
    expect(later.code, later.stderr).toBe(0);
    expect(later.stdout).toContain('a.ts:1');
    expect(later.stdout).not.toContain('index_state: indexing');
  });
});

describe('the CLI on a terminal prints what a call waits for on stderr', () => {
  let w: DaemonWorld;

  beforeAll(() => {
    assertBuilt();
    w = daemonWorld(
      ['--progress-never-ends'],
      {},
      { ...INDEXING, timeouts: { startMs: 60_000, readyMs: 120_000, requestMs: 30_000, shutdownMs: 1_000, idleMs: 0 } },
    );
    fs.writeFileSync(path.join(w.ws, 'a.ts'), SOURCE);
    const serversFile = path.join(w.base, 'cfg', 'lspgate', 'servers.json');
    const servers = JSON.parse(fs.readFileSync(serversFile, 'utf8')) as { servers: unknown[] };
    fs.writeFileSync(serversFile, JSON.stringify({ servers: [...servers.servers, TS_OFF] }));
  });

  afterAll(async () => {
    const pid = (await daemonStatus(w))?.pid;
    await stopDaemon(w);
    if (pid !== undefined) expect(await waitGone([pid])).toEqual([]);
    removeDir(w.base);
  });

  // The daemon is started by the call in the terminal: the pty driver's environment (PATH) is not
  // this process's, and a daemon started here would refuse a client with another environment.
  it.each([
    ['through the daemon', 'require'],
    ['in its own process', 'off'],
  ])('%s', async (_name, mode) => {
    const args = [CLI, 'find_definition', '--symbol', 'greet', '--root', w.ws, '--daemon', mode, '--wait_ms', '500'];
    const pty = runInPty(process.execPath, args, { env: { ...w.env, LSPGATE_CACHE_DIR: w.cacheDir } });
    expect(await pty.exited).toBe(1);
    const screen = pty.screen();
    // the server the call started, said while it waited, then the answer
    const said = screen.indexOf('lspgate: fault: starting');
    expect(said, screen).toBeGreaterThanOrEqual(0);
    expect(screen.indexOf('NOT_READY: fault is still'), screen).toBeGreaterThan(said);
    if (mode === 'require') expect(await daemonStatus(w)).toBeDefined();
  });

  // the REPL on a terminal says it the same way, between the command and its answer; through the daemon
  // the server is already loading (the calls above started it): said from where it stands
  it.each([
    ['the REPL through the daemon', 'require'],
    ['the REPL in its own process', 'off'],
  ])('%s', async (_name, mode) => {
    const pty = runInPty(process.execPath, [CLI, 'repl', '--root', w.ws, '--daemon', mode], { env: { ...w.env, LSPGATE_CACHE_DIR: w.cacheDir } });
    try {
      await pty.waitFor('lspgate> ', 'the prompt');
      const from = pty.screen().length;
      pty.keys('.def greet --wait_ms 500\r');
      await pty.waitFor('NOT_READY', 'the answer', from);
      const screen = pty.screen().slice(from);
      const said = screen.indexOf('lspgate: fault: ');
      expect(said, screen).toBeGreaterThanOrEqual(0);
      expect(screen.indexOf('NOT_READY: fault is still'), screen).toBeGreaterThan(said);
      pty.keys('.exit\r');
      await pty.exited;
    } finally {
      pty.kill();
    }
  });
});
