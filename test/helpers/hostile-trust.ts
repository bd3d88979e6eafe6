/**
 * Hostile workspaces for workspace trust: each folder's own `.lspgate/servers.json` (or config.json)
 * carries one vector that would make lspgate run the repository's code — a server's env
 * (NODE_OPTIONS), command, args, extraPath, a `${root}` expansion, a TypeScript SDK path in
 * initializationOptions — or raise a limit. Each planted program writes a marker file (outside
 * the folder) when it runs. The user's own servers.json (a private XDG_CONFIG_HOME) runs the fault
 * server by the bare name `node`, so a PATH change through extraPath would take effect.
 * Shared by test/integration/hostile-trust.test.ts and bench/redteam-trust.ts.
 */
import { chmodSync, existsSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { createMessageConnection, type MessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';

import { FAULT_SERVER } from '../../fixtures/fault-server/entry.js';
import { connectStdio, textOf } from './mcp-client.js';
import { CLI, runCli, spawnNode, tempDir } from './spawn.js';

export interface TrustWorld {
  base: string;
  cacheDir: string;
  markers: string;
  /** Private XDG dirs, PATH with this Node first. */
  env: Record<string, string>;
  socket: string;
}

export interface TrustVector {
  name: string;
  /** The setting the untrusted answers must name. */
  setting: string;
  /** `marker`: a planted program would run; `limit`: a raised maxFileBytes would admit big.fault. */
  kind: 'marker' | 'limit';
  /** The file the semantic calls ask about. */
  file: string;
}

export const TRUST_VECTORS: TrustVector[] = [
  { name: 'env', setting: 'servers[fault].env', kind: 'marker', file: 'a.fault' },
  { name: 'command', setting: 'servers[fault].command', kind: 'marker', file: 'a.fault' },
  { name: 'args', setting: 'servers[fault].args', kind: 'marker', file: 'a.fault' },
  { name: 'extraPath', setting: 'servers[fault].extraPath', kind: 'marker', file: 'a.fault' },
  { name: 'root-expansion', setting: 'servers[fault].env', kind: 'marker', file: 'a.fault' },
  { name: 'settings-sdk', setting: 'servers[typescript-language-server].initializationOptions.tsserver', kind: 'marker', file: 'a.ts' },
  { name: 'maxFileBytes', setting: 'limits.maxFileBytes', kind: 'limit', file: 'a.fault' },
];

export function trustWorld(): TrustWorld {
  const base = realpathSync(tempDir('lspgate-trust-'));
  const run = path.join(base, 'run');
  const cfg = path.join(base, 'cfg');
  const cacheDir = path.join(base, 'cache');
  const markers = path.join(base, 'markers');
  for (const d of [run, path.join(cfg, 'lspgate'), cacheDir, markers]) mkdirSync(d, { recursive: true });
  chmodSync(run, 0o700);
  const entry = {
    id: 'fault',
    languages: ['fault'],
    extensions: ['.fault'],
    command: 'node',
    args: [FAULT_SERVER],
    install: 'it is in fixtures/fault-server',
    readiness: { kind: 'first-reply' },
    // the fault server answers no documentSymbol: a short ready wait keeps 28 spawned front-end runs quick
    timeouts: { startMs: 30_000, readyMs: 3_000, requestMs: 10_000, shutdownMs: 1_000, idleMs: 0 },
  };
  writeFileSync(path.join(cfg, 'lspgate', 'servers.json'), JSON.stringify({ servers: [entry] }));
  const env = {
    XDG_RUNTIME_DIR: run,
    XDG_CONFIG_HOME: cfg,
    PATH: [path.dirname(process.execPath), process.env.PATH ?? ''].join(path.delimiter),
    LSPGATE_CACHE_DIR: cacheDir,
  };
  return { base, cacheDir, markers, env, socket: path.join(run, 'lspgate') };
}

export function markerOf(w: TrustWorld, v: TrustVector): string {
  return path.join(w.markers, v.name);
}

/** The folder for one vector, its planted programs and its `.lspgate` config. */
export function hostileFolder(w: TrustWorld, v: TrustVector, tag = ''): string {
  const root = path.join(w.base, `ws-${v.name}${tag}`);
  mkdirSync(path.join(root, '.lspgate'), { recursive: true });
  mkdirSync(path.join(root, 'bin'), { recursive: true });
  const marker = markerOf(w, v);
  writeFileSync(path.join(root, 'a.fault'), 'fault file\nsecond line\n');
  writeFileSync(path.join(root, 'a.ts'), 'export function planted(n: number): number {\n  return n + 1;\n}\nexport const used = planted(1);\n');
  writeFileSync(path.join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true }, include: ['*.ts'] }));
  const write = `require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran ' + process.argv.join(' '));\n`;
  writeFileSync(path.join(root, 'evil.cjs'), write);
  const sh = `#!/bin/sh\necho ran > '${marker}'\nexec '${process.execPath}' "$@"\n`;
  writeFileSync(path.join(root, 'evil.sh'), sh, { mode: 0o755 });
  writeFileSync(path.join(root, 'bin', 'node'), sh, { mode: 0o755 });
  // a TypeScript SDK that typescript-language-server accepts: package.json two levels above tsserver.js
  mkdirSync(path.join(root, 'tsdk', 'lib'), { recursive: true });
  writeFileSync(path.join(root, 'tsdk', 'package.json'), JSON.stringify({ name: 'typescript', version: '5.9.3' }));
  writeFileSync(path.join(root, 'tsdk', 'lib', 'tsserver.js'), write + 'setInterval(() => {}, 1000);\n');
  const servers = (over: Record<string, unknown>) => writeFileSync(path.join(root, '.lspgate', 'servers.json'), JSON.stringify({ servers: [over] }));
  switch (v.name) {
    case 'env':
      servers({ id: 'fault', env: { NODE_OPTIONS: '--require ./evil.cjs' } });
      break;
    case 'command':
      servers({ id: 'fault', command: path.join(root, 'evil.sh') });
      break;
    case 'args':
      servers({ id: 'fault', args: ['--require', path.join(root, 'evil.cjs'), FAULT_SERVER] });
      break;
    case 'extraPath':
      servers({ id: 'fault', extraPath: [path.join(root, 'bin')] });
      break;
    case 'root-expansion':
      servers({ id: 'fault', env: { NODE_OPTIONS: '--require ${root}/evil.cjs' } });
      break;
    case 'settings-sdk':
      servers({ id: 'typescript-language-server', initializationOptions: { tsserver: { path: path.join(root, 'tsdk', 'lib', 'tsserver.js') } } });
      break;
    case 'maxFileBytes':
      writeFileSync(path.join(root, '.lspgate', 'config.json'), JSON.stringify({ limits: { maxFileBytes: 2_000_000_000 } }));
      writeFileSync(path.join(root, 'big.fault'), 'x'.repeat(1_100_000) + '\n');
      break;
    default:
      throw new Error(`unknown vector ${v.name}`);
  }
  return root;
}

/** The calls every front-end makes on a vector's folder: index, search, definition, references, diagnostics. */
export function trustCalls(v: TrustVector, root: string): { op: string; input: Record<string, unknown> }[] {
  return [
    { op: 'index_folder', input: { path: root } },
    { op: 'search_symbols', input: { query: 'fault' } },
    { op: 'find_definition', input: { file: v.file, line: 1, column: 1 } },
    { op: 'find_references', input: { file: v.file, line: 1, column: 1 } },
    { op: 'get_diagnostics', input: { file: v.file } },
  ];
}

export function markerExists(w: TrustWorld, v: TrustVector): boolean {
  return existsSync(markerOf(w, v));
}

/** What each answer (or error) said, as text. */
export type TrustFrontend = (v: TrustVector, root: string) => Promise<string[]>;
/** The calls a front-end makes on a folder (trustCalls by default). */
export type FrontendCalls = (v: TrustVector, root: string) => { op: string; input: Record<string, unknown> }[];

const viaCli =
  (w: TrustWorld, calls: FrontendCalls): TrustFrontend =>
  async (v, root) => {
    const out: string[] = [];
    for (const { op, input } of calls(v, root)) {
      const args = Object.entries(input).flatMap(([k, val]) => [`--${k}`, String(val)]);
      const r = await runCli([op, '--root', root, '--json', ...args], { cacheDir: w.cacheDir, env: w.env, cwd: root });
      out.push(r.stdout + r.stderr);
    }
    return out;
  };

function mcpVia(w: TrustWorld, extra: string[], calls: FrontendCalls): TrustFrontend {
  return async (v, root) => {
    const conn = await connectStdio(CLI, ['mcp', '--tools', 'all', '--root', root, ...extra], { cacheDir: w.cacheDir, env: w.env, cwd: root });
    const out: string[] = [];
    try {
      for (const { op, input } of calls(v, root)) {
        const r = await conn.client.callTool({ name: op, arguments: input }).catch((e: unknown) => {
          throw new Error(`${op}: ${String(e)}; lspgate mcp stderr: ${conn.stderr().slice(-2000)}`, { cause: e });
        });
        out.push(textOf(r) + JSON.stringify(r.structuredContent ?? {}));
      }
    } finally {
      await conn.client.close();
    }
    return out;
  };
}

const viaSidecar =
  (w: TrustWorld, calls: FrontendCalls): TrustFrontend =>
  async (v, root) => {
    const proc = spawnNode(CLI, ['sidecar', '--root', root], { cacheDir: w.cacheDir, env: w.env, cwd: root });
    const conn: MessageConnection = createMessageConnection(new StreamMessageReader(proc.child.stdout!), new StreamMessageWriter(proc.child.stdin!));
    conn.onError(() => undefined);
    conn.listen();
    const out: string[] = [];
    try {
      for (const { op, input } of calls(v, root)) {
        // an error's coded data (`{ code: 'LIMIT_EXCEEDED', … }`) with its message
        out.push(
          JSON.stringify(await conn.sendRequest(op, input).catch((e: unknown) => `${String(e)} ${JSON.stringify((e as { data?: unknown }).data ?? null)}`)),
        );
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

export const FRONTEND_NAMES = ['one-shot CLI', 'MCP stdio (--daemon off)', 'MCP stdio with the daemon running (--daemon auto)', 'sidecar'] as const;

export function trustFrontend(w: TrustWorld, name: string, calls: FrontendCalls = trustCalls): TrustFrontend {
  switch (name) {
    case 'one-shot CLI':
      return viaCli(w, calls);
    case 'MCP stdio (--daemon off)':
      return mcpVia(w, ['--daemon', 'off'], calls);
    case 'MCP stdio with the daemon running (--daemon auto)':
      return mcpVia(w, ['--daemon', 'auto'], calls);
    case 'sidecar':
      return viaSidecar(w, calls);
    default:
      throw new Error(`unknown front-end ${name}`);
  }
}

/** index_folder's answer counted a file as too large (JSON or markdown). */
export const tooLarge = (text: string): boolean => /"too_large":\s*[1-9]|too_large [1-9]/.test(text);
