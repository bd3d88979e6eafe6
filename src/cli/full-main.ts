/**
 * The `lspgate` command: long-running modes (mcp, sidecar, repl), the tour, `servers`, and every
 * operation as a one-shot sub-command. Stdout carries only the protocol or the answer; everything
 * else goes to stderr.
 */
import path from 'node:path';
import v8 from 'node:v8';

import { userOnlyKeyWarnings } from '../config/trust.js';
import { LspgateError } from '../errors/errors.js';
import { attachToDaemon, daemonMode } from '../frontends/daemon-client/client.js';
import type { FrontendGateway } from '../frontends/host.js';
import { installLifecycle } from '../frontends/lifecycle.js';
import { errorText, runOneShot } from '../frontends/one-shot.js';
import { COMMON_OPTIONS, guardedParse } from '../frontends/operation-args.js';
import { packageVersion } from '../frontends/version.js';
import { Gateway } from '../gateway/gateway.js';
import { progressLine } from '../link/progress-line.js';
import { configuredTools, parseToolsFlag, selectTools } from '../operations/profiles.js';
import { operations } from '../operations/registry.js';
import type { ProgressUpdate } from '../operations/types.js';
import { applyCorpusFlags } from '../service/search/corpus-sync.js';
import { applyServerStartFlag } from '../service/workspace/server-warmup.js';
import { createLogger } from '../util/logger.js';
import { runRecoverCommand } from './recover-command.js';
import { serversReport, serversText } from './servers-command.js';
import { commandFirst } from './thin/argv.js';
import { mainHelp } from './thin/help-text.js';
import { runTrustCommand } from './trust-command.js';

const MODE_OPTIONS = {
  ...COMMON_OPTIONS,
  http: { type: 'boolean' },
  port: { type: 'string' },
  'max-body-bytes': { type: 'string' },
  stateless: { type: 'boolean' },
  'session-idle-ms': { type: 'string' },
  'max-sessions': { type: 'string' },
  'handshake-ms': { type: 'string' },
  'server-start': { type: 'string' },
  tools: { type: 'string' },
} as const;

/**
 * V8 flags of the long-running modes, set at start (GC heuristics are read at each collection, so
 * they take effect although the VM is already up). `--optimize-for-size` keeps the old generation
 * close to what is alive instead of letting garbage double it: under 8 MCP HTTP clients x 200 mixed
 * calls on 500 files (npm run soak:http) lspgate's RSS peaked at 167 MB with it against 254 MB
 * without (live heap ~70 MB either way), for ~15% more CPU in JSON-heavy work. LSPGATE_V8_FLAGS
 * replaces them ('' = V8's defaults).
 */
export const DEFAULT_V8_FLAGS = '--optimize-for-size';

function tuneHeap(): void {
  const flags = (process.env.LSPGATE_V8_FLAGS ?? DEFAULT_V8_FLAGS).trim();
  if (flags) v8.setFlagsFromString(flags);
}

function fullHelp(): string {
  return mainHelp(
    operations.map((o) => ({ name: o.name, title: o.title, ...(o.repl ? { repl: o.repl.command } : {}) })),
    packageVersion(),
  );
}

function printError(e: unknown): number {
  const { text, code } = errorText(e);
  process.stderr.write(text);
  return code;
}

function exitAfterFlush(code: number): void {
  process.stdout.write('', () => process.exit(code));
}

async function main(argv: string[]): Promise<void> {
  const [cmd, ...rest] = argv;
  if (cmd === undefined || cmd === '--help' || cmd === '-h' || cmd === 'help') {
    process.stdout.write(fullHelp() + '\n');
    return exitAfterFlush(0);
  }
  if (cmd === '--version' || cmd === '-v' || cmd === 'version') {
    process.stdout.write(packageVersion() + '\n');
    return exitAfterFlush(0);
  }
  switch (cmd) {
    case 'mcp':
    case 'sidecar':
    case 'repl':
      tuneHeap();
      return runMode(cmd, rest);
    case 'tour':
    case 'demo':
      return runTourCommand(rest);
    case 'servers':
      return runServers(rest);
    case 'publish':
      return exitAfterFlush(await (await import('./publish-command.js')).runPublishCommand(rest));
    case 'recover':
      return exitAfterFlush(runRecoverCommand(rest));
    case 'trust':
    case 'untrust':
      process.stdout.write(runTrustCommand(cmd, rest));
      return exitAfterFlush(0);
    case 'daemon':
      tuneHeap();
      // each mode loads its own front-end: the daemon runs none (it hosts them on demand), nor the tour or the REPL
      return (await import('./daemon-command.js')).runDaemonCommand(rest);
    default:
      return runOperation(cmd, rest);
  }
}

async function runMode(mode: 'mcp' | 'sidecar' | 'repl', argv: string[]): Promise<void> {
  const { values } = guardedParse({ args: argv, options: MODE_OPTIONS, strict: true, allowPositionals: false });
  if (values.help) {
    process.stdout.write(fullHelp() + '\n');
    return exitAfterFlush(0);
  }
  const root = values.root ?? process.cwd();
  // Checked before any server starts: a typo in --tools is a startup error, not a missing tool later.
  if (values.tools !== undefined && mode !== 'mcp') throw usage('--tools applies to lspgate mcp only');
  // Without --tools or "tools" in config, `lspgate mcp` lists the default profile (core plus the edits).
  // Without --tools, the user's "tools" (default: the default profile), which the repository's config may only narrow.
  const profile =
    mode !== 'mcp'
      ? undefined
      : values.tools !== undefined
        ? { tools: selectTools(parseToolsFlag(values.tools), operations), warnings: [] }
        : configuredTools(root, operations);
  const tools = profile?.tools;
  const warnings = [...(profile?.warnings ?? []), ...(mode === 'mcp' ? userOnlyKeyWarnings(path.resolve(root)) : [])];
  applyServerStartFlag(values['server-start']);
  applyCorpusFlags({ flowCorpus: values['flow-corpus'], policy: values.policy });
  const serversFiles = values.servers ?? [];
  const gateway = await gatewayFor(values.daemon, root, serversFiles, mode === 'mcp' && values.http ? 'mcp-http' : mode, profile?.warnings, values.index);
  for (const w of warnings) gateway.context.logger.warn(w);
  if (mode === 'repl') return (await import('../frontends/repl/repl.js')).runRepl(gateway);
  if (mode === 'sidecar') return (await import('../frontends/sidecar/sidecar.js')).runSidecar(gateway);
  if (!values.http) return (await import('../frontends/mcp/stdio.js')).runMcpStdio(gateway, tools, warnings);
  const port = values.port === undefined ? 0 : Number(values.port);
  const maxBody = values['max-body-bytes'] === undefined ? undefined : Number(values['max-body-bytes']);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw usage(`--port must be 0..65535, got ${values.port}`);
  if (maxBody !== undefined && !(Number.isInteger(maxBody) && maxBody > 0)) throw usage('--max-body-bytes must be a positive integer');
  const idle = values['session-idle-ms'] === undefined ? undefined : Number(values['session-idle-ms']);
  if (idle !== undefined && !(Number.isInteger(idle) && idle > 0)) throw usage('--session-idle-ms must be a positive integer');
  const maxSessions = values['max-sessions'] === undefined ? undefined : Number(values['max-sessions']);
  if (maxSessions !== undefined && !(Number.isInteger(maxSessions) && maxSessions > 0)) throw usage('--max-sessions must be a positive integer');
  const handshakeMs = values['handshake-ms'] === undefined ? undefined : Number(values['handshake-ms']);
  if (handshakeMs !== undefined && !(Number.isInteger(handshakeMs) && handshakeMs > 0)) throw usage('--handshake-ms must be a positive integer');
  const { runMcpHttp } = await import('../frontends/mcp/http.js');
  await runMcpHttp(gateway, {
    port,
    ...(maxBody !== undefined ? { maxBodyBytes: maxBody } : {}),
    ...(values.stateless ? { stateless: true } : {}),
    ...(idle !== undefined ? { sessionIdleMs: idle } : {}),
    ...(maxSessions !== undefined ? { maxSessions } : {}),
    ...(handshakeMs !== undefined ? { handshakeMs } : {}),
    ...(tools ? { tools } : {}),
    warnings,
  });
}

async function runTourCommand(argv: string[]): Promise<void> {
  const { values } = guardedParse({ args: argv, options: COMMON_OPTIONS, strict: true, allowPositionals: false });
  applyCorpusFlags({ flowCorpus: values['flow-corpus'], policy: values.policy });
  const gateway = await Gateway.create({ root: values.root ?? process.cwd(), serversFiles: values.servers ?? [] });
  installLifecycle(gateway, { watchStdin: false, logger: gateway.context.logger });
  let code: number;
  try {
    const { runTour } = await import('../tour/tour.js');
    const { failures } = await runTour(gateway, { write: (s) => process.stdout.write(s) });
    code = failures > 0 ? 1 : 0;
  } catch (e) {
    code = printError(e);
  }
  await gateway.close();
  exitAfterFlush(code);
}

async function runServers(argv: string[]): Promise<void> {
  const { values } = guardedParse({ args: argv, options: COMMON_OPTIONS, strict: true, allowPositionals: false });
  const report = serversReport(values.root ?? process.cwd(), values.servers ?? []);
  process.stdout.write((values.json ? JSON.stringify(report, null, 2) : serversText(report)) + '\n');
  exitAfterFlush(0);
}

async function runOperation(name: string, argv: string[]): Promise<void> {
  // progress only on a terminal: a script reading stderr gets the error text alone, as before
  const progress = process.stderr.isTTY ? (p: ProgressUpdate) => process.stderr.write(progressLine(p) ?? '') : undefined;
  const out = await runOneShot(
    [name, ...argv],
    async (flags) => {
      applyCorpusFlags(flags);
      const gateway = await gatewayFor(flags.daemon, flags.root ?? process.cwd(), flags.servers, 'cli', [], flags.index);
      installLifecycle(gateway, { watchStdin: false, logger: gateway.context.logger });
      return gateway;
    },
    undefined,
    progress,
  );
  process.stderr.write(out.stderr);
  process.stdout.write(out.stdout);
  exitAfterFlush(out.exit_code);
}

/**
 * Attached to the user's daemon (--daemon auto|require, the default auto), else a gateway in this
 * process. With --index the gateway is this process's: the shared daemon reads the index it was
 * started with (LSPGATE_INDEX), not this call's.
 */
async function gatewayFor(
  flag: string | undefined,
  root: string,
  serversFiles: string[],
  frontend: string,
  warnings: string[] = [],
  index?: string,
): Promise<FrontendGateway> {
  const mode = (index ?? process.env.LSPGATE_INDEX) ? 'off' : daemonMode(flag);
  const notices: string[] = [...warnings];
  if (mode !== 'off') {
    const remote = await attachToDaemon({ mode, root, serversFiles, frontend, logger: createLogger(), onInProcess: (w) => notices.push(w) });
    if (remote) return remote;
  }
  // a one-shot operation in this process: no server warmed up to be stopped at the exit (serverStartSetting)
  return Gateway.create({ root, serversFiles, notices, ...(index ? { index } : {}), serverStartDefault: frontend === 'cli' ? 'on-demand' : undefined });
}

function usage(message: string): LspgateError {
  return new LspgateError('INVALID_INPUT', message);
}

main(commandFirst(process.argv.slice(2))).catch((e: unknown) => {
  exitAfterFlush(printError(e));
});
