/**
 * The "raw server" column of the benchmark: a minimal LSP client over vscode-jsonrpc, started
 * from the same servers.json entry lspgate uses, waiting for the same readiness signal, with no
 * cache, no descriptor building and no safety checks. What lspgate adds is measured against this.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { createMessageConnection, type MessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import {
  type ClientCapabilities,
  ConfigurationRequest,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  RegistrationRequest,
  type ServerCapabilities,
  ShutdownRequest,
  WorkDoneProgressCreateRequest,
  WorkspaceFoldersRequest,
} from 'vscode-languageserver-protocol';

import { type ServerEntry, ServersFileSchema } from '../src/config/schema.js';
import type { AnyRequestType } from '../src/lsp/types.js';

const here = path.dirname(fileURLToPath(import.meta.url));
/** The lspgate checkout (dist/bench/.. /..): where servers.json and node_modules live. */
export const packageRoot = path.resolve(here, here.includes(`${path.sep}dist${path.sep}`) ? '../..' : '..');

export function loadShippedEntry(id: string): ServerEntry {
  const file = ServersFileSchema.parse(JSON.parse(fs.readFileSync(path.join(packageRoot, 'servers.json'), 'utf8')));
  const entry = file.servers.find((s) => s.id === id);
  if (!entry) throw new Error(`no servers.json entry ${id}`);
  return entry;
}

const requireFromPackage = createRequire(path.join(packageRoot, 'package.json'));

function packageDir(name: string): string {
  return path.dirname(requireFromPackage.resolve(`${name}/package.json`));
}

/** `${packageDir:x}` and `${cacheDir}` placeholders, as the broker expands them. */
function expand(value: unknown, cacheDir: string): unknown {
  if (typeof value === 'string') {
    return value.replace(/\$\{packageDir:([^}]+)\}/g, (_, n: string) => packageDir(n)).replace(/\$\{cacheDir\}/g, cacheDir);
  }
  if (Array.isArray(value)) return value.map((v) => expand(v, cacheDir));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expand(v, cacheDir)]));
  return value;
}

function commandLine(entry: ServerEntry): { file: string; args: string[] } {
  if (entry.package && entry.binPath) {
    const bin = path.join(packageDir(entry.package), entry.binPath);
    return entry.node ? { file: process.execPath, args: [bin, ...entry.args] } : { file: bin, args: entry.args };
  }
  return { file: entry.command, args: entry.args };
}

const CLIENT_CAPABILITIES: ClientCapabilities = {
  general: { positionEncodings: ['utf-16'] },
  window: { workDoneProgress: true },
  workspace: { configuration: true, workspaceFolders: true, didChangeWatchedFiles: { dynamicRegistration: true } },
  textDocument: {
    synchronization: { didSave: false, dynamicRegistration: false },
    documentSymbol: { hierarchicalDocumentSymbolSupport: true },
    definition: { linkSupport: true },
    typeDefinition: { linkSupport: true },
    references: {},
    hover: { contentFormat: ['markdown', 'plaintext'] },
    callHierarchy: {},
  },
};

export interface Timed<T> {
  result: T;
  ms: number;
}

export class RawLspClient {
  readonly opened = new Set<string>();
  capabilities: ServerCapabilities | undefined;
  private readonly openProgress = new Map<string | number, string>();
  private readyPattern: RegExp | undefined;
  private sawMatchingEnd = false;
  private readyResolve: (() => void) | undefined;
  private stderrTail: string[] = [];

  private constructor(
    readonly entry: ServerEntry,
    readonly root: string,
    private readonly proc: ChildProcess,
    private readonly conn: MessageConnection,
  ) {}

  get pid(): number | undefined {
    return this.proc.pid;
  }

  /** Spawns and initializes; returns once `initialized` is sent. */
  static async start(entry: ServerEntry, root: string, cacheDir: string): Promise<RawLspClient> {
    const { file, args } = commandLine(entry);
    const extraPath = entry.extraPath.join(path.delimiter);
    const env = { ...process.env, ...entry.env, PATH: [process.env.PATH ?? '', extraPath].filter(Boolean).join(path.delimiter) };
    const proc = spawn(file, args, { cwd: root, env, stdio: ['pipe', 'pipe', 'pipe'] });
    const conn = createMessageConnection(new StreamMessageReader(proc.stdout!), new StreamMessageWriter(proc.stdin!));
    const client = new RawLspClient(entry, root, proc, conn);
    proc.stderr!.on('data', (d: Buffer) => client.stderrTail.push(...d.toString('utf8').split('\n').slice(-20)));
    proc.on('error', (err) => client.stderrTail.push(String(err)));
    client.wire(cacheDir);
    conn.listen();
    const rootUri = pathToFileURL(root).href;
    const init = await conn.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri,
      workspaceFolders: [{ uri: rootUri, name: path.basename(root) }],
      capabilities: CLIENT_CAPABILITIES,
      initializationOptions: expand(entry.initializationOptions, cacheDir) as object,
    });
    client.capabilities = init.capabilities;
    await conn.sendNotification(InitializedNotification.type, {});
    return client;
  }

  private wire(cacheDir: string): void {
    const settings = expand(this.entry.settings, cacheDir) as Record<string, unknown>;
    this.conn.onRequest(ConfigurationRequest.type, (p) => p.items.map((it) => lookup(settings, it.section)));
    this.conn.onRequest(WorkDoneProgressCreateRequest.type, () => undefined);
    this.conn.onRequest(RegistrationRequest.type, () => undefined);
    this.conn.onRequest(WorkspaceFoldersRequest.type, () => [{ uri: pathToFileURL(this.root).href, name: path.basename(this.root) }]);
    // $/progress never reaches generic notification handlers in vscode-jsonrpc.
    this.conn.onUnhandledProgress(({ token, value }) => {
      const v = value as { kind?: string; title?: string };
      if (v.kind === 'begin') this.openProgress.set(token, v.title ?? '');
      if (v.kind === 'end') {
        const title = this.openProgress.get(token) ?? '';
        this.openProgress.delete(token);
        if (this.readyPattern?.test(title)) this.sawMatchingEnd = true;
        this.checkReady();
      }
    });
    if (this.entry.readiness.kind === 'notification') {
      this.conn.onNotification(this.entry.readiness.method, () => {
        this.sawMatchingEnd = true;
        this.checkReady();
      });
    }
    this.conn.onNotification(() => undefined);
  }

  private checkReady(): void {
    if (this.sawMatchingEnd && this.openProgress.size === 0) this.readyResolve?.();
  }

  /**
   * Waits for the entry's readiness signal after `kick` (opening a first file is what makes
   * tsserver load the project). first-reply: the kick's documentSymbol answer is the signal.
   */
  async waitReady(kick: () => Promise<unknown>): Promise<void> {
    const r = this.entry.readiness;
    if (r.kind === 'first-reply') {
      await kick();
      return;
    }
    this.readyPattern = r.kind === 'progress' ? new RegExp(r.titlePattern ?? '.*') : undefined;
    const ready = new Promise<void>((resolve) => {
      this.readyResolve = resolve;
    });
    await kick();
    // No signal within quietMs of the kick: the server counts as ready (same rule as the session).
    let quiet: NodeJS.Timeout | undefined;
    const quietCheck = new Promise<void>((resolve) => {
      const tick = () => {
        if (this.openProgress.size === 0 && !this.sawMatchingEnd) resolve();
        else quiet = setTimeout(tick, r.quietMs);
      };
      quiet = setTimeout(tick, r.quietMs);
    });
    this.checkReady();
    await Promise.race([ready, quietCheck]);
    clearTimeout(quiet);
  }

  async open(absPath: string): Promise<void> {
    if (this.opened.has(absPath)) return;
    this.opened.add(absPath);
    const text = fs.readFileSync(absPath, 'utf8');
    const ext = path.extname(absPath);
    const languageId = this.entry.languageIds[ext] ?? this.entry.languages[0]!;
    await this.conn.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri: pathToFileURL(absPath).href, languageId, version: 1, text },
    });
  }

  /** didClose: a client that only wants the outline does not leave hundreds of files open (tsserver re-checks open files). */
  async close(absPath: string): Promise<void> {
    if (!this.opened.delete(absPath)) return;
    await this.conn.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri: pathToFileURL(absPath).href } });
  }

  async request<P, R>(type: AnyRequestType<P, R>, params: P): Promise<Timed<R>> {
    const t0 = performance.now();
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const result = (await this.conn.sendRequest(type as any, params)) as R;
    return { result, ms: performance.now() - t0 };
  }

  stderr(): string[] {
    return this.stderrTail.slice(-20);
  }

  async stop(): Promise<void> {
    const pids = this.pid ? processTree(this.pid) : [];
    const exited = new Promise<void>((resolve) => (this.proc.exitCode !== null ? resolve() : this.proc.once('exit', () => resolve())));
    try {
      await Promise.race([this.conn.sendRequest(ShutdownRequest.type), sleep(3000)]);
      await this.conn.sendNotification(ExitNotification.type);
    } catch {
      // The server may already be gone; the tree is killed below either way.
    }
    await Promise.race([exited, sleep(3000)]);
    // tsserver children outlive a parent that exits without a clean shutdown.
    for (const pid of pids) killQuietly(pid);
    this.conn.dispose();
  }
}

function lookup(settings: Record<string, unknown>, section: string | undefined): unknown {
  if (!section) return settings;
  let cur: unknown = settings;
  for (const part of section.split('.')) {
    if (!cur || typeof cur !== 'object') return null;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur ?? null;
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms).unref());
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already exited
  }
}

/** The pid and all its descendants, from /proc (Linux). */
export function processTree(rootPid: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(name));
      children.set(ppid, list);
    } catch {
      // the process exited while we walked /proc
    }
  }
  const out: number[] = [];
  const stack = [rootPid];
  while (stack.length) {
    const pid = stack.pop()!;
    out.push(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return out;
}

/** Peak resident set (VmHWM) of one process in MB, 0 when it is gone. */
export function peakRssMb(pid: number): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** Sum of the peaks of every process of the tree (an upper bound of the tree's peak). */
export function treePeakRssMb(rootPid: number, exclude: number[] = []): number {
  return processTree(rootPid)
    .filter((p) => !exclude.includes(p))
    .reduce((sum, p) => sum + peakRssMb(p), 0);
}
