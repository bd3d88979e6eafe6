/**
 * What `lspgate repl` changes in node:repl: one queue for commands and evaluations (so piped input
 * prints in input order), unknown dot-commands answered through that queue, awaited evaluation
 * results, and completion of operation flags and symbol names.
 */
import type { REPLServer } from 'node:repl';
import type { FrontendGateway } from '../host.js';
import { inputFields } from '../input-fields.js';
import { formatError } from './commands.js';

type Completer = (line: string, cb: (err: Error | null, result: [string[], string]) => void) => void;
type EvalFn = (code: string, context: object, file: string, cb: (err: Error | null, result?: unknown) => void) => void;

/** Runs jobs one after the other; a failed job does not stop the next. */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  enqueue<T>(job: () => Promise<T>): Promise<T> {
    const next = this.tail.then(job, job);
    this.tail = next.catch(() => undefined);
    return next;
  }

  /** Settles once every job queued so far has. */
  idle(): Promise<unknown> {
    return this.tail;
  }
}

/**
 * Unknown dot-commands: node:repl would print "Invalid REPL keyword" at once, ahead of the output of
 * commands still queued. It looks commands up in `server.commands`: a proxy answers unknown keywords
 * with a command that replies through the queue.
 */
export function answerUnknownCommands(server: REPLServer, queue: SerialQueue, write: (s: string) => void, prompt: () => void): void {
  type CommandTable = Record<string, { help?: string; action: (this: REPLServer, rest: string) => void }>;
  const mutableCommands = server as unknown as { commands: CommandTable };
  mutableCommands.commands = new Proxy(mutableCommands.commands, {
    get(target, key, receiver) {
      const found = Reflect.get(target, key, receiver) as unknown;
      if (found !== undefined || typeof key !== 'string') return found;
      return {
        action() {
          void queue.enqueue(async () => write(`unknown command .${key} (.help lists them)`)).finally(prompt);
        },
      };
    },
  });
}

/**
 * Serialise JavaScript with the commands, and await what it returns.
 * REPLServer.eval is typed read-only but is a plain writable property (the 'line' handler reads it).
 */
export function serialiseEval(server: REPLServer, queue: SerialQueue, write: (s: string) => void): void {
  const mutable = server as unknown as { eval: EvalFn };
  const defaultEval = mutable.eval;
  mutable.eval = (code, context, file, cb) => {
    void queue.enqueue(
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
}

/** After `.command `: `--` completes the operation's flags, anything else a symbol name. */
export function completeCommandArgs(server: REPLServer, gateway: FrontendGateway, names: { complete(prefix: string): string[] }): void {
  const mutable = server as unknown as { completer: Completer };
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
}

function isThenable(v: unknown): v is Promise<unknown> {
  return typeof v === 'object' && v !== null && typeof (v as { then?: unknown }).then === 'function';
}
