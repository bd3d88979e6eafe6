/**
 * Workspace trust through the spawned front-ends: for each vector a repository's own `.lspgate`
 * config carries (a server's env, command, args, extraPath, a `${root}` expansion, a TypeScript SDK
 * path in initializationOptions, a raised maxFileBytes), the one-shot CLI, `lspgate mcp` on stdio,
 * `lspgate mcp` while the user's daemon runs, and the sidecar each index, search, ask a definition,
 * references and diagnostics: the planted program never runs (its marker file never appears), the
 * limit stays the user's, and the answers name the ignored setting and `lspgate trust <root>`. Then
 * the same folder, trusted with `lspgate trust`, runs what it configures and says so.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessageConnection } from 'vscode-jsonrpc/node';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import { connectStdio, textOf } from '../helpers/mcp-client.js';
import { assertBuilt, CLI, runCli, spawnNode, waitFor, type Spawned } from '../helpers/spawn.js';
import { hostileFolder, markerExists, trustCalls, trustWorld, TRUST_VECTORS, type TrustVector, type TrustWorld } from '../helpers/hostile-trust.js';
import { daemonPaths } from '../../src/frontends/daemon-client/socket-dir.js';

let w: TrustWorld;
let daemon: Spawned | undefined;
const roots = new Map<string, string>();

beforeAll(async () => {
  assertBuilt();
  w = trustWorld();
  for (const v of TRUST_VECTORS) roots.set(v.name, hostileFolder(w, v));
  daemon = spawnNode(CLI, ['daemon'], { cacheDir: w.cacheDir, env: { ...w.env, LSPGATE_LOG: 'info' } });
  const socket = daemonPaths(w.cacheDir, w.env).socket;
  await waitFor(() => fs.existsSync(socket), 'the daemon socket', 60_000);
}, 90_000);

afterAll(async () => {
  if (daemon) {
    await runCli(['daemon', 'stop'], { cacheDir: w.cacheDir, env: w.env });
    const bound = setTimeout(() => daemon!.child.kill('SIGKILL'), 20_000);
    await daemon.exited;
    clearTimeout(bound);
  }
  fs.rmSync(w.base, { recursive: true, force: true });
}, 60_000);

/** What each answer (or error) said, as text. */
type Frontend = (v: TrustVector, root: string) => Promise<string[]>;

const viaCli: Frontend = async (v, root) => {
  const out: string[] = [];
  for (const { op, input } of trustCalls(v, root)) {
    const args = Object.entries(input).flatMap(([k, val]) => [`--${k}`, String(val)]);
    const r = await runCli([op, '--root', root, '--json', ...args], { cacheDir: w.cacheDir, env: w.env, cwd: root });
    out.push(r.stdout + r.stderr);
  }
  return out;
};

function mcpVia(extra: string[]): Frontend {
  return async (v, root) => {
    const conn = await connectStdio(CLI, ['mcp', '--root', root, ...extra], { cacheDir: w.cacheDir, env: w.env, cwd: root });
    const out: string[] = [];
    try {
      for (const { op, input } of trustCalls(v, root)) {
        const r = await conn.client.callTool({ name: op, arguments: input });
        out.push(textOf(r) + JSON.stringify(r.structuredContent ?? {}));
      }
    } finally {
      await conn.client.close();
    }
    return out;
  };
}

const viaSidecar: Frontend = async (v, root) => {
  const proc = spawnNode(CLI, ['sidecar', '--root', root], { cacheDir: w.cacheDir, env: w.env, cwd: root });
  const conn: MessageConnection = createMessageConnection(new StreamMessageReader(proc.child.stdout!), new StreamMessageWriter(proc.child.stdin!));
  conn.onError(() => undefined);
  conn.listen();
  const out: string[] = [];
  try {
    for (const { op, input } of trustCalls(v, root)) {
      out.push(JSON.stringify(await conn.sendRequest(op, input).catch((e: unknown) => String(e))));
    }
  } finally {
    conn.dispose();
    proc.child.stdin?.end();
    const bound = setTimeout(() => proc.child.kill('SIGKILL'), 20_000);
    await proc.exited;
    clearTimeout(bound);
  }
  return out;
};

const FRONTENDS: [string, Frontend][] = [
  ['one-shot CLI', viaCli],
  ['MCP stdio (--daemon off)', mcpVia(['--daemon', 'off'])],
  ['MCP stdio with the daemon running (--daemon auto)', mcpVia(['--daemon', 'auto'])],
  ['sidecar', viaSidecar],
];

const tooLarge = (text: string) => /"too_large":\s*[1-9]|too_large [1-9]/.test(text);

describe.each(TRUST_VECTORS)('a repository config setting $name', (v) => {
  it.each(FRONTENDS)('untrusted, through the %s: nothing of the repository runs, and the answers say how to trust', async (_name, frontend) => {
    const root = roots.get(v.name)!;
    const answers = await frontend(v, root);
    const all = answers.join('\n');
    expect(markerExists(w, v), all.slice(0, 4000)).toBe(false);
    if (v.kind === 'limit') expect(tooLarge(answers[0]!), answers[0]).toBe(true);
    // every answer of the workspace warns: the index, the semantic calls
    const warned = answers.filter((a) => a.includes(v.setting) && a.includes(`lspgate trust ${root}`));
    expect(warned.length, all.slice(0, 4000)).toBeGreaterThanOrEqual(answers.length - 1);
  }, 300_000);

  it('trusted with `lspgate trust`, the folder runs its configured server and says so', async () => {
    const root = roots.get(v.name)!;
    const trust = await runCli(['trust', root], { cacheDir: w.cacheDir, env: w.env });
    expect(trust.code, trust.stderr).toBe(0);
    expect(trust.stdout).toContain(`trusted: ${root}`);
    const servers = await runCli(['servers', '--root', root], { cacheDir: w.cacheDir, env: w.env });
    expect(servers.stdout).toContain(`${root}: trusted`);
    const index = await runCli(['index_folder', '--root', root, '--json', '--path', root], { cacheDir: w.cacheDir, env: w.env, cwd: root });
    expect(index.stdout + index.stderr).toContain('applied in full');
    if (v.kind === 'limit') expect(tooLarge(index.stdout), index.stdout).toBe(false);
    else {
      await runCli(['find_definition', '--root', root, '--json', '--file', v.file, '--line', '1', '--column', '1'], { cacheDir: w.cacheDir, env: w.env, cwd: root });
      expect(markerExists(w, v)).toBe(true);
    }
    const untrust = await runCli(['untrust', root], { cacheDir: w.cacheDir, env: w.env });
    expect(untrust.stdout).toContain(`untrusted: ${root}`);
  }, 300_000);
});

describe('lspgate servers on an untrusted folder', () => {
  it('says it is not trusted and lists what it ignored', async () => {
    const root = roots.get('env')!;
    const r = await runCli(['servers', '--root', root], { cacheDir: w.cacheDir, env: w.env });
    expect(r.stdout).toContain(`${root}: not trusted`);
    expect(r.stdout).toContain('ignored: .lspgate/servers.json servers[fault].env');
    expect(r.stdout).toContain(`lspgate trust ${root}`);
  }, 60_000);
});
