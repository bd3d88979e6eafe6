/**
 * `lspgate repl --daemon require` attached to a real daemon in a private XDG_RUNTIME_DIR, against
 * the real typescript-language-server on fixtures/ts-app: an operation, `.raw`, `.trace` (the
 * shared session's traffic, not the sessions of another client's root), `.servers`; a sidecar
 * client on the same root uses the same single server tree; `.raw` outside what this client holds
 * is a coded error; after `.exit` (and, in the second test, EOF) the REPL has detached and the server still runs under the daemon.
 * Then a REPL in this process on a RemoteGateway: symbol-name completion and `.daemon` attached.
 * And a daemon stopped while a REPL call is in flight: the call answers DAEMON_FAILED, the REPL goes on.
 */
import { PassThrough } from 'node:stream';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { connect } from '../../src/frontends/daemon-client/client.js';
import type { DaemonStatus } from '../../src/frontends/daemon-client/protocol.js';
import { RemoteGateway } from '../../src/frontends/daemon-client/remote-gateway.js';
import { type ReplHandle, startRepl } from '../../src/frontends/repl/repl.js';
import { createLogger } from '../../src/util/logger.js';
import { daemonStatus, type DaemonWorld, daemonWorld, faultServersUnder, sidecarClient, stopDaemon } from '../helpers/daemon.js';
import { endWorld } from '../helpers/daemon-procs.js';
import { assertBuilt, CLI, commandLine, descendants, isAlive, runCli, type Spawned, spawnNode, TS_APP, waitFor } from '../helpers/spawn.js';

const TEST_TIMEOUT_MS = 240_000;
const TSLS = 'typescript-language-server';
const SYMBOLS = `.raw ${TSLS} textDocument/documentSymbol {"textDocument":{"uri":"src/util/strings.ts"}}`;

/** Processes of the TypeScript server tree (the server and its tsserver children), not their reaper watchdogs. */
function tsServersUnder(pid: number): number[] {
  return descendants(pid).filter((p) => {
    const cmd = commandLine(p);
    return (cmd.includes(TSLS) || cmd.includes('tsserver')) && !cmd.includes('lspgate-reaper');
  });
}

function tsLanguageServersUnder(pid: number): number[] {
  return tsServersUnder(pid).filter((p) => commandLine(p).includes(TSLS));
}

/** Asserts that the fragments occur in `text` in this order; returns the offset after the last. */
function expectInOrder(text: string, fragments: string[], from = 0): number {
  let at = from;
  for (const f of fragments) {
    const i = text.indexOf(f, at);
    expect(i, `"${f}" after offset ${at} in:\n${text.slice(from)}`).toBeGreaterThanOrEqual(0);
    at = i + f.length;
  }
  return at;
}

/** A REPL in this process on a RemoteGateway attached to the world's daemon at fixtures/ts-app. */
async function attachedRepl(w: DaemonWorld): Promise<{ remote: RemoteGateway; handle: ReplHandle; input: PassThrough; out: () => string }> {
  // the spawned REPL of beforeAll starts the daemon: wait for it to listen
  let socket = await connect(w.socket);
  for (let i = 0; i < 600 && !socket; i++) {
    await new Promise((r) => setTimeout(r, 100));
    socket = await connect(w.socket);
  }
  const remote = RemoteGateway.open(socket!, TS_APP, createLogger('test', 'error'), w.cacheDir);
  await remote.attach('repl');
  const input = new PassThrough();
  const output = new PassThrough();
  let text = '';
  output.setEncoding('utf8').on('data', (d: string) => (text += d));
  const handle = startRepl(remote, { input, output, terminal: false });
  return { remote, handle, input, out: () => text };
}

describe('lspgate repl attached to the daemon', () => {
  let w: DaemonWorld;
  let repl: Spawned;
  const spawned: Spawned[] = [];
  let daemonPid = 0;
  let marker = 0;

  /** Sends lines, then waits until the REPL has printed everything they produced (a JS marker after them). */
  async function send(lines: string[]): Promise<string> {
    const tag = `done-${++marker}`;
    const before = repl.stdout().length;
    repl.child.stdin!.write([...lines, `'${tag}'`].join('\n') + '\n');
    await waitFor(() => repl.stdout().includes(`'${tag}'`), `the REPL to print ${tag}`, 180_000);
    return repl.stdout().slice(before);
  }

  beforeAll(() => {
    assertBuilt();
    // a fault server beside the shipped servers: the session of another client's root
    w = daemonWorld([]);
    repl = spawnNode(CLI, ['repl', '--daemon', 'require', '--root', TS_APP], { cacheDir: w.cacheDir, env: w.env });
    spawned.push(repl);
  });

  afterAll(async () => {
    for (const p of spawned) if (p.child.exitCode === null) p.child.kill('SIGKILL');
    await stopDaemon(w);
    if (daemonPid) await waitFor(() => !isAlive(daemonPid), 'the daemon to exit');
    await endWorld(w);
  });

  it(
    'runs operations, .raw and .trace through the daemon, sharing one server tree with a sidecar client',
    async () => {
      let out = await send(['.trace on', SYMBOLS, '.def formatName']);
      expectInOrder(out, [
        'trace on',
        // the daemon starts the server while this client traces: traced from its first message
        `[trace ${TSLS}] → request initialize`,
        `[trace ${TSLS}] → request textDocument/documentSymbol`,
        `[trace ${TSLS}] ← response textDocument/documentSymbol`,
        '"name": "formatName"',
        `ms from ${TSLS} @ ${TS_APP}`,
        'Definition of formatName',
        'src/util/strings.ts:7',
      ]);
      let s: DaemonStatus = (await daemonStatus(w))!;
      daemonPid = s.pid;
      expect(s.clients).toEqual([expect.objectContaining({ frontend: 'repl', pid: repl.child.pid, root: TS_APP })]);
      // the server runs under the daemon, not under the REPL
      const [tsls] = tsLanguageServersUnder(s.pid);
      expect(tsLanguageServersUnder(s.pid)).toHaveLength(1);
      expect(tsServersUnder(repl.child.pid!)).toEqual([]);

      // a sidecar on the same root: the same single server tree
      const same = sidecarClient(w, TS_APP);
      spawned.push(same.proc);
      const def = await same.conn.sendRequest<{ definitions: { file: string }[] }>('find_definition', { symbol: 'formatName' });
      expect(def.definitions[0]!.file).toBe('src/util/strings.ts');
      // a sidecar on another root, whose session this REPL must not see in its trace
      const other = sidecarClient(w, w.ws);
      spawned.push(other.proc);
      const faultDef = await other.conn.sendRequest<{ definitions: { file: string }[] }>('find_definition', { symbol: 'FaultSymbol' });
      expect(faultDef.definitions[0]!.file).toBe('a.fault');
      s = (await daemonStatus(w))!;
      expect(s.clients.map((c) => c.frontend).sort()).toEqual(['repl', 'sidecar', 'sidecar']);
      expect(s.sessions.filter((x) => x.server === TSLS)).toEqual([expect.objectContaining({ root: TS_APP, pid: tsls })]);
      expect(tsLanguageServersUnder(s.pid)).toEqual([tsls]);
      expect(faultServersUnder(s.pid)).toHaveLength(1);
      for (const c of [same, other]) expect(tsServersUnder(c.proc.child.pid!)).toEqual([]);

      out = await send([SYMBOLS, '.trace off', '.servers']);
      const offAt = expectInOrder(out, [`[trace ${TSLS}] ← response textDocument/documentSymbol`, '"name": "formatName"', 'trace off']);
      // the other root's traffic (its fault server started and answered meanwhile) never reached this client
      expect(repl.stdout()).not.toContain('[trace fault]');
      expect(out.slice(offAt)).not.toContain('[trace ');
      // .servers: configured servers, and the sessions of this client's root only
      expectInOrder(out, ['configured servers:', `  ${TSLS}  `, '  fault  ', 'sessions:', `${TSLS} @ ${TS_APP}: ready pid ${tsls}`]);
      expect(out).not.toContain(`fault @ ${w.ws}`);

      // what this client does not hold: a coded error, never a silent answer
      out = await send([
        `.raw --workspace ${w.ws} fault textDocument/documentSymbol {"textDocument":{"uri":"a.fault"}}`,
        '.raw no-such-server initialize {}',
        `.raw ${TSLS} textDocument/documentSymbol {"textDocument":{"uri":"file://${w.ws}/a.fault"}}`,
      ]);
      expectInOrder(out, [
        `WORKSPACE_NOT_FOUND: no workspace ${w.ws} held by this client`,
        'INVALID_INPUT: no configured server no-such-server',
        'PATH_OUTSIDE_WORKSPACE: path is outside the workspace',
      ]);

      out = await send(['.help']);
      expect(out).toContain("Detach from the lspgate daemon and exit (the daemon's servers keep running)");
      // .exit (stdin still open): the REPL detaches and exits; the daemon and its server stay
      repl.child.stdin!.write('.exit\n');
      expect((await repl.exited).code).toBe(0);
      const st = await runCli(['daemon', 'status', '--json'], { cacheDir: w.cacheDir, env: w.env });
      expect(st.code).toBe(0);
      const after = JSON.parse(st.stdout) as DaemonStatus;
      expect(after.pid).toBe(daemonPid);
      expect(after.clients.map((c) => c.pid)).not.toContain(repl.child.pid);
      expect(after.sessions.filter((x) => x.server === TSLS)).toEqual([expect.objectContaining({ root: TS_APP, state: 'ready', pid: tsls })]);
      expect(isAlive(tsls!)).toBe(true);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'completes symbol names from the catalog in the daemon and answers .daemon, attached in this process',
    async () => {
      const { remote, handle, input, out } = await attachedRepl(w);
      type Completer = (line: string, cb: (err: Error | null, r: [string[], string]) => void) => void;
      const completer = (handle.server as unknown as { completer: Completer }).completer;
      const complete = (line: string) =>
        new Promise<[string[], string]>((resolve, reject) => completer.call(handle.server, line, (err, r) => (err ? reject(err) : resolve(r))));
      expect((await complete('.dae'))[0]).toContain('daemon');
      input.write('.def formatName\n');
      await waitFor(() => out().includes('src/util/strings.ts'), 'the .def answer', 120_000);
      let hits: string[] = [];
      for (let i = 0; i < 100 && !hits.includes('formatName'); i++) {
        hits = (await complete('.refs formatN'))[0];
        if (!hits.includes('formatName')) await new Promise((r) => setTimeout(r, 100));
      }
      expect(hits).toContain('formatName');
      expect((await complete('.fn Registry.'))[0]).toContain('Registry.all');
      input.write('.daemon\n');
      await waitFor(() => out().includes(`repl pid ${process.pid}`), 'the .daemon answer listing this client', 30_000);
      // EOF detaches this one
      input.end();
      await handle.closed;
      await remote.close();
      let s = (await daemonStatus(w))!;
      for (let i = 0; i < 50 && s.clients.some((c) => c.pid === process.pid); i++) {
        await new Promise((r) => setTimeout(r, 100));
        s = (await daemonStatus(w))!;
      }
      expect(s.clients.map((c) => c.pid)).not.toContain(process.pid);
      expect(s.sessions.filter((x) => x.server === TSLS && x.state === 'ready')).toHaveLength(1);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'two REPLs tracing one shared session both see its traffic; one leaving does not end the other trace',
    async () => {
      const a = await attachedRepl(w);
      const b = await attachedRepl(w);
      a.input.write('.trace on\n');
      b.input.write('.trace on\n');
      await waitFor(() => a.out().includes('trace on') && b.out().includes('trace on'), 'both traces on');
      a.input.write(`${SYMBOLS.replace('util/strings.ts', 'services/registry.ts')}\n`);
      const line = `[trace ${TSLS}] → request textDocument/documentSymbol`;
      await waitFor(() => a.out().includes('ms from') && b.out().includes(line), "A's answer and its request in B's trace", 120_000);
      expect(a.out()).toContain(line);
      // B leaves (EOF detaches it); A's trace goes on
      b.input.end();
      await b.handle.closed;
      await b.remote.close();
      const before = a.out().length;
      a.input.write(`${SYMBOLS}\n`);
      await waitFor(() => a.out().slice(before).includes('ms from'), "A's second answer", 120_000);
      expect(a.out().slice(before)).toContain(`[trace ${TSLS}] ← response textDocument/documentSymbol`);
      a.input.end();
      await a.handle.closed;
      await a.remote.close();
    },
    TEST_TIMEOUT_MS,
  );
});

describe('lspgate repl when the daemon goes away mid-call', () => {
  let w: DaemonWorld;
  let repl: Spawned | undefined;

  afterAll(async () => {
    if (repl && repl.child.exitCode === null) repl.child.kill('SIGKILL');
    // the REPL re-attached after the loss and started a new daemon: end it too
    await endWorld(w);
  });

  it(
    'answers the pending call DAEMON_FAILED and keeps reading input',
    async () => {
      assertBuilt();
      // the fault server takes 3 s per definition: the call is surely in flight when the daemon stops
      w = daemonWorld();
      repl = spawnNode(CLI, ['repl', '--daemon', 'require', '--root', w.ws], { cacheDir: w.cacheDir, env: w.env });
      const r = repl;
      r.child.stdin!.write('.def FaultSymbol\n');
      let s: DaemonStatus | undefined;
      for (let i = 0; i < 600 && !s?.clients.some((c) => c.pid === r.child.pid && c.running_requests > 0); i++) {
        await new Promise((res) => setTimeout(res, 100));
        s = await daemonStatus(w);
      }
      expect(s?.clients.some((c) => c.pid === r.child.pid && c.running_requests > 0)).toBe(true);
      await stopDaemon(w);
      await waitFor(() => r.stdout().includes('DAEMON_FAILED'), 'the pending call to fail', 30_000);
      r.child.stdin!.write("'still here'\n.exit\n");
      expect((await r.exited).code).toBe(0);
      expect(r.stdout()).toMatch(/DAEMON_FAILED: find_definition: the lspgate daemon closed the connection[^\n]*\n[\s\S]*'still here'/);
    },
    TEST_TIMEOUT_MS,
  );
});
