/**
 * `lspgate repl`: node:repl for people debugging lspgate. Dot-commands come from the operation
 * table; plain input is JavaScript with `gateway` and `run` in scope. Every command and every
 * evaluation goes through one queue, so with piped stdin the outputs come out in input order and
 * EOF waits for the last one before every server is stopped.
 */
import os from 'node:os';
import path from 'node:path';
import repl, { type REPLServer } from 'node:repl';
import type { Readable, Writable } from 'node:stream';
import type { Gateway } from '../../gateway/gateway.js';
import { inputFields } from '../input-fields.js';
import { builtinCommands, formatError, operationCommands, type ReplCommand, type ReplState } from './commands.js';
import { installLifecycle } from '../lifecycle.js';
import { TraceTap } from './trace.js';

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

type Completer = (line: string, cb: (err: Error | null, result: [string[], string]) => void) => void;
type EvalFn = (code: string, context: object, file: string, cb: (err: Error | null, result?: unknown) => void) => void;

export function startRepl(gateway: Gateway, opts: ReplOptions): ReplHandle {
  const terminal = opts.terminal ?? Boolean((opts.output as { isTTY?: boolean }).isTTY);
  const write = (s: string) => opts.output.write(s.endsWith('\n') ? s : s + '\n');
  const state: ReplState = { json: false };
  const trace = new TraceTap(gateway.context.broker, write);
  let queue: Promise<unknown> = Promise.resolve();
  const enqueue = <T>(job: () => Promise<T>): Promise<T> => {
    const next = queue.then(job, job);
    queue = next.catch(() => undefined);
    return next;
  };

  const server = repl.start({
    prompt: terminal ? 'lspgate> ' : '',
    input: opts.input,
    output: opts.output,
    terminal,
    useGlobal: false,
    ignoreUndefined: true,
  });
  server.context.gateway = gateway;
  server.context.run = async (name: string, input: unknown) => (await gateway.run(name, input)).result;

  // At EOF of piped input the readline closes while queued commands still run; prompting after
  // that throws ERR_USE_AFTER_CLOSE on Node 24 (Node 20/22 ignore it).
  let inputClosed = false;
  server.once('exit', () => (inputClosed = true));
  const prompt = () => {
    if (!inputClosed) server.displayPrompt();
  };

  const names = new SymbolNames(gateway);
  const commands: ReplCommand[] = [];
  commands.push(...operationCommands(gateway, state), ...builtinCommands(gateway, state, trace, () => commands));
  for (const cmd of commands) {
    server.defineCommand(cmd.name, {
      help: cmd.help,
      action(args: string) {
        void enqueue(async () => {
          write(await cmd.run(args));
          trace.sync();
          names.refresh();
        }).finally(prompt);
      },
    });
  }

  // Unknown dot-commands: node:repl would print "Invalid REPL keyword" at once, ahead of the
  // output of commands still queued. It looks commands up in `server.commands`: a proxy answers
  // unknown keywords with a command that replies through the queue.
  type CommandTable = Record<string, { help?: string; action: (this: REPLServer, rest: string) => void }>;
  const mutableCommands = server as unknown as { commands: CommandTable };
  mutableCommands.commands = new Proxy(mutableCommands.commands, {
    get(target, key, receiver) {
      const found = Reflect.get(target, key, receiver) as unknown;
      if (found !== undefined || typeof key !== 'string') return found;
      return {
        action() {
          void enqueue(async () => write(`unknown command .${key} (.help lists them)`)).finally(prompt);
        },
      };
    },
  });

  // Serialise JavaScript with the commands, and await what it returns.
  // REPLServer.eval is typed read-only but is a plain writable property (the 'line' handler reads it).
  const mutable = server as unknown as { eval: EvalFn; completer: Completer };
  const defaultEval = mutable.eval;
  mutable.eval = (code, context, file, cb) => {
    void enqueue(
      () =>
        new Promise<void>((done) => {
          defaultEval.call(server, code, context, file, (err, result) => {
            if (err || !isThenable(result)) {
              cb(err, result);
              return done();
            }
            result.then(
              (v) => cb(null, v),
              (e: unknown) => {
                write(formatError(e));
                cb(null, undefined);
              },
            );
            void result.then(
              () => done(),
              () => done(),
            );
          });
        }),
    );
  };

  const defaultCompleter = mutable.completer;
  mutable.completer = (line, cb) => {
    const m = /^\s*\.(\S+)\s+(?:.*\s)?(\S*)$/.exec(line);
    if (!m) return defaultCompleter.call(server, line, cb);
    const [, cmd, word] = m as unknown as [string, string, string];
    const op = gateway.operations().find((o) => o.name === cmd || o.repl?.command === cmd);
    if (word.startsWith('--') && op) {
      const flags = inputFields(op).map((f) => `--${f.name}`).concat('--json');
      return cb(null, [flags.filter((f) => f.startsWith(word)), word]);
    }
    return cb(null, [names.complete(word), word]);
  };

  if (terminal) {
    const file = opts.historyFile ?? path.join(gateway.context.cacheDir || os.tmpdir(), 'repl_history');
    server.setupHistory(file, (err) => {
      if (err) gateway.context.logger.debug('repl history unavailable', err);
    });
  }

  const closed = new Promise<void>((resolve) => {
    server.once('exit', () => {
      // Piped stdin reaches EOF long before queued commands finish: let them run (and trace) first.
      void queue.then(() => {
        trace.off();
        resolve();
      });
    });
  });
  return { server, closed };
}

function isThenable(v: unknown): v is Promise<unknown> {
  return typeof v === 'object' && v !== null && typeof (v as { then?: unknown }).then === 'function';
}

/** Symbol names for tab completion, from the catalog once it has been built (never builds it itself). */
class SymbolNames {
  private names: string[] = [];
  private loading = false;

  constructor(private readonly gateway: Gateway) {}

  refresh(): void {
    if (this.loading) return;
    this.loading = true;
    void (async () => {
      try {
        const ws = await this.gateway.workspaceFor(undefined);
        const st = ws.catalog.status();
        if ((st.state === 'ready' || st.state === 'partial') && ws.catalog.all) {
          const set = new Set<string>();
          for (const s of await ws.catalog.all()) {
            set.add(s.name);
            set.add(s.qualified_name);
          }
          this.names = [...set].sort();
        }
      } catch (e) {
        this.gateway.context.logger.debug('completion names unavailable', e);
      } finally {
        this.loading = false;
      }
    })();
  }

  complete(prefix: string): string[] {
    return this.names.filter((n) => n.startsWith(prefix)).slice(0, 200);
  }
}

/** The CLI entry: a REPL on this process's stdio; `.exit` or EOF stops every server and exits. */
export function runRepl(gateway: Gateway): void {
  const logger = gateway.context.logger.child('repl');
  const { server, closed } = startRepl(gateway, { input: process.stdin, output: process.stdout });
  // EOF is seen by the REPL itself ('exit'), which waits for queued commands: do not also watch stdin.
  const lifecycle = installLifecycle(gateway, { watchStdin: false, closeFrontend: () => server.close(), logger });
  void closed.then(() => lifecycle.shutdown('repl closed'));
}
