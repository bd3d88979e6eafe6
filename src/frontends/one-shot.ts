/**
 * One operation from command-line words to what the CLI prints: stdout, stderr and the exit
 * status. The CLI runs it in its own process (`--daemon off`, or auto's fallback) and the daemon
 * runs it for a thin client's `lspgate/cli`, so both print the same bytes: the answer (markdown,
 * or the result as JSON with --json), an operation's --help, or an error as `CODE: message` plus
 * its details, exit 2 for INVALID_INPUT and UNKNOWN_OPERATION, else 1.
 */
import { LspgateError, toLspgateError } from '../errors/errors.js';
import { operations } from '../operations/registry.js';
import { DEFAULT_MAX_MS } from '../operations/runner.js';
import type { Operation, ProgressUpdate } from '../operations/types.js';
import { escapeBlock, jsonSafeText } from '../util/control-chars.js';
import { operationHelp } from './help.js';
import type { FrontendGateway } from './host.js';
import { nearestName } from './nearest-name.js';
import { type CommonFlags, parseOperationArgs } from './operation-args.js';
import { relayProgress } from './server-progress.js';

export interface OneShotOutput {
  stdout: string;
  stderr: string;
  exit_code: number;
}

/** INVALID_INPUT and usage errors exit 2; every other failure exits 1. */
export function exitCodeFor(e: LspgateError): number {
  return e.code === 'INVALID_INPUT' || e.code === 'UNKNOWN_OPERATION' ? 2 : 1;
}

export function errorText(e: unknown): { text: string; code: number } {
  const err = toLspgateError(e);
  // a person reads this: a name quoted in the message or details may hold control characters
  const details = err.details === undefined ? '' : `\n${jsonSafeText(JSON.stringify(err.details, null, 2))}`;
  return { text: `${err.code}: ${escapeBlock(err.message)}${details}\n`, code: exitCodeFor(err) };
}

export function findOperation(name: string): Operation {
  const op = operations.find((o) => o.name === name);
  if (op) return op;
  const near = nearestName(
    name,
    operations.map((o) => o.name),
  );
  const hint = name.startsWith('-') ? '; flags go after the operation' : near ? `; did you mean ${near}?` : '';
  throw new LspgateError('UNKNOWN_OPERATION', `unknown command or operation: ${name.slice(0, 100)}${hint} (lspgate --help lists them)`, {
    ...(near ? { did_you_mean: near } : {}),
    operations: operations.map((o) => o.name),
  });
}

/**
 * Parses `argv` (`<operation> [flags]`), opens a gateway for its flags, runs it, closes the gateway.
 * With `progress`, what the call waits for (servers starting and loading, with their progress) goes
 * there while it runs: the CLI prints it on a terminal's stderr.
 */
export async function runOneShot(
  argv: readonly string[],
  open: (flags: CommonFlags) => Promise<FrontendGateway>,
  signal?: AbortSignal,
  progress?: (p: ProgressUpdate) => void,
): Promise<OneShotOutput> {
  const [name = '', ...rest] = argv;
  let gateway: FrontendGateway | undefined;
  let relay: ReturnType<typeof relayProgress> | undefined;
  try {
    const op = findOperation(name);
    const { input, flags } = parseOperationArgs(op, rest);
    if (flags.help) return { stdout: operationHelp(op) + '\n', stderr: '', exit_code: 0 };
    gateway = await open(flags);
    const format = flags.json ? 'json' : (input.output_format ?? 'markdown');
    relay = progress ? relayProgress(gateway.context.broker, progress) : undefined;
    const { result, text } = await gateway.run(
      op.name,
      { ...input, output_format: format },
      { defaultMaxMs: DEFAULT_MAX_MS, ...(signal ? { signal } : {}), ...(relay ? { progress: relay.progress } : {}) },
    );
    return { stdout: flags.json ? jsonSafeText(JSON.stringify(result, null, 2)) + '\n' : text.endsWith('\n') ? text : text + '\n', stderr: '', exit_code: 0 };
  } catch (e) {
    const { text, code } = errorText(e);
    return { stdout: '', stderr: text, exit_code: code };
  } finally {
    relay?.dispose();
    await gateway?.close();
  }
}
