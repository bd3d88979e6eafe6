/**
 * `lspgate repl`: node:repl for people debugging lspgate. Dot-commands come from the operation
 * table; plain input is JavaScript with `gateway` and `run` in scope. Every command and every
 * evaluation goes through one queue, so with piped stdin the outputs come out in input order and
 * EOF waits for the last one before every server is stopped — or, attached to `lspgate daemon`,
 * before this client detaches (the daemon's servers stay). `.raw`, `.trace`, `.servers` and
 * completion go through the backend of the gateway it has (backend.ts).
 */
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import repl, { type REPLServer } from 'node:repl';
import type { Readable, Writable } from 'node:stream';

import type { Logger } from '../../util/logger.js';
import type { FrontendGateway } from '../host.js';
import { installLifecycle } from '../lifecycle.js';
import { replBackendFor } from './backend.js';
import type { ReplBackend } from './backend-types.js';
import { builtinCommands, operationCommands, type ReplCommand, type ReplState } from './commands.js';
import { serialiseEval, SerialQueue } from './eval-queue.js';
import { answerUnknownCommands, completeCommandArgs } from './hooks.js';

export interface ReplOptions {
  input: Readable;
  output: Writable;
  /** Defaults to whether output is a TTY. */
  terminal?: boolean;
  /** History file; default `<cacheDir>/repl_history` (TTY sessions only). */
  historyFile?: string;
}

export interface ReplHandle {
  server: REPLServer;
  /** Resolves after `.exit` or EOF, once every queued command has printed. */
  closed: Promise<void>;
}

export function startRepl(gateway: FrontendGateway, opts: ReplOptions): ReplHandle {
  const terminal = opts.terminal ?? Boolean((opts.output as { isTTY?: boolean }).isTTY);
  const write = (s: string) => opts.output.write(s.endsWith('\n') ? s : s + '\n');
  const state: ReplState = { json: false };
  const backend = replBackendFor(gateway, write);
  const trace = backend.trace;
  const queue = new SerialQueue();

  const server = repl.start({
    prompt: terminal ? 'lspgate> ' : '',
    input: opts.input,
    output: opts.output,
    terminal,
    useGlobal: false,
    ignoreUndefined: true,
    // node:repl holds back every key while an awaited line runs, Ctrl-C included, unless this is
    // set: then Ctrl-C reaches the SIGINT handler below (and interrupts a synchronous loop too)
    breakEvalOnSigint: true,
  });
  server.context.gateway = gateway;
  // Ctrl-C cancels the call of the line that runs it (queue.signal: the running job's)
  server.context.run = async (name: string, input: unknown) => {
    const signal = queue.signal;
    return (await gateway.run(name, input, signal ? { signal } : undefined)).result;
  };

  // At EOF of piped input the readline closes while queued commands still run; prompting after
  // that throws ERR_USE_AFTER_CLOSE on Node 24 (Node 20/22 ignore it).
  let inputClosed = false;
  server.once('exit', () => (inputClosed = true));
  const prompt = () => {
    if (!inputClosed) server.displayPrompt();
  };

  const names = new SymbolNames(backend, gateway.context.logger);
  names.refresh(true);
  const commands: ReplCommand[] = [];
  // on a terminal a call that waits for a server says what it waits for, as the CLI does on stderr
  const progress = terminal ? (line: string) => void opts.output.write(line) : undefined;
  commands.push(...operationCommands(gateway, state, progress), ...builtinCommands(gateway, state, backend, () => commands));
  for (const cmd of commands) {
    server.defineCommand(cmd.name, {
      help: cmd.help,
      action(args: string) {
        void queue
          .enqueue(async (signal) => {
            write(await cmd.run(args, signal));
            trace.sync();
            names.refresh();
          })
          .finally(prompt);
      },
    });
  }
  answerUnknownCommands(server, queue, write, prompt);
  serialiseEval(server, queue, write, prompt);
  cancelOnCtrlC(server, queue);
  completeCommandArgs(server, gateway, names);
  if (terminal) setupHistory(server, gateway, opts.historyFile);

  const closed = new Promise<void>((resolve) => {
    server.once('exit', () => {
      // Piped stdin reaches EOF long before queued commands finish: let them run (and trace) first.
      void queue.idle().then(async () => {
        // attached: the daemon drops this client's trace when it detaches anyway
        if (trace.enabled) await trace.off().catch(() => undefined);
        resolve();
      });
    });
  });
  return { server, closed };
}

/**
 * Ctrl-C while a command or evaluation runs cancels it (its call answers CANCELLED) and the REPL
 * goes on; with nothing running it is node:repl's own (clear the line, twice to exit).
 */
function cancelOnCtrlC(server: REPLServer, queue: SerialQueue): void {
  const own = server.listeners('SIGINT') as ((...a: unknown[]) => void)[];
  server.removeAllListeners('SIGINT');
  server.on('SIGINT', (...a: unknown[]) => {
    if (queue.cancelRunning()) return;
    for (const listener of own) listener.apply(server, a);
  });
}

function setupHistory(server: REPLServer, gateway: FrontendGateway, historyFile: string | undefined): void {
  const file = historyFile ?? path.join(gateway.context.cacheDir || os.tmpdir(), 'repl_history');
  // node:repl opens the file but makes no directory: in a cache directory not made yet it printed
  // "Could not open history file" into the first session.
  try {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  } catch (e) {
    gateway.context.logger.debug('repl history directory unavailable', e);
  }
  server.setupHistory(file, (err) => {
    if (err) gateway.context.logger.debug('repl history unavailable', err);
  });
}

/**
 * Symbol names for tab completion: from the catalog a finished build stored, at start (a warm start:
 * the names are read while its build runs), then after every command. Never builds a catalog that
 * is not stored: a cold build is the first command's.
 */
class SymbolNames {
  private names: string[] = [];
  private loading: Promise<void> | undefined;

  constructor(
    private readonly backend: ReplBackend,
    private readonly logger: Logger,
  ) {}

  refresh(stored = false): void {
    this.loading ??= (async () => {
      try {
        const names = await this.backend.symbolNames({ stored });
        if (names.length) this.names = names;
      } catch (e) {
        this.logger.debug('completion names unavailable', e);
      } finally {
        this.loading = undefined;
      }
    })();
  }

  /** The names starting with `prefix`; a Tab before the first names came waits for them. */
  async complete(prefix: string): Promise<string[]> {
    if (this.names.length === 0 && this.loading) await this.loading;
    return this.names.filter((n) => n.startsWith(prefix)).slice(0, 200);
  }
}

/** The CLI entry: a REPL on this process's stdio; `.exit` or EOF stops every server (attached: detaches) and exits. */
export function runRepl(gateway: FrontendGateway): void {
  const logger = gateway.context.logger.child('repl');
  const { server, closed } = startRepl(gateway, { input: process.stdin, output: process.stdout });
  // On a terminal, Ctrl-C is the REPL's (a key, or during a synchronous line node:repl's own SIGINT
  // watchdog, which a process SIGINT listener defeats: Node then died of the signal).
  const signals: NodeJS.Signals[] = process.stdout.isTTY ? ['SIGTERM', 'SIGHUP'] : ['SIGINT', 'SIGTERM', 'SIGHUP'];
  // EOF is seen by the REPL itself ('exit'), which waits for queued commands: do not also watch stdin.
  const lifecycle = installLifecycle(gateway, { watchStdin: false, closeFrontend: () => server.close(), logger, signals });
  void closed.then(() => lifecycle.shutdown('repl closed'));
}
