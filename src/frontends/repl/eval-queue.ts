/**
 * One queue for the REPL's commands and JavaScript evaluations (so piped input prints in input
 * order), whose running job Ctrl-C cancels, and the evaluation's errors answered in one line.
 *
 * node:repl's own eval does not report a throwing line through the callback it was given: it runs
 * inside the REPL's domain and, when the code throws (`foo` → ReferenceError) or an awaited promise
 * rejects, emits the error on that domain and returns without calling back. The domain's listener
 * prints a stack of a dozen lines into the user's terminal, and a queue waiting for the callback
 * waits forever: no command ran again. Here the domain's listener is replaced by one that prints
 * `ReferenceError: foo is not defined` and ends the evaluation it belongs to.
 */
import type { EventEmitter } from 'node:events';
import { Recoverable, type REPLServer } from 'node:repl';
import { inspect } from 'node:util';

import { LspgateError } from '../../errors/errors.js';
import { formatError } from './commands.js';

type EvalCallback = (err: Error | null, result?: unknown) => void;
type EvalFn = (code: string, context: object, file: string, cb: EvalCallback) => void;

/**
 * Runs jobs one after the other; a failed job does not stop the next; the running one can be
 * cancelled. A job queued `signalOnRequest` (JavaScript) listens to its signal only once it asked
 * for it through `signal` (a `run()` call): an awaited promise of the user's own never would, so
 * Ctrl-C is left to node:repl, which ends that wait (aborting first swallowed the first Ctrl-C).
 */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();
  private running: { controller: AbortController; listened: boolean } | undefined;

  enqueue<T>(job: (signal: AbortSignal) => Promise<T>, opts: { signalOnRequest?: boolean } = {}): Promise<T> {
    const run = async () => {
      const mine = { controller: new AbortController(), listened: !opts.signalOnRequest };
      this.running = mine;
      try {
        return await job(mine.controller.signal);
      } finally {
        if (this.running === mine) this.running = undefined;
      }
    };
    const next = this.tail.then(run, run);
    this.tail = next.catch(() => undefined);
    return next;
  }

  /** The running job's signal (JavaScript's `run()` passes it on), if a job runs. */
  get signal(): AbortSignal | undefined {
    if (!this.running) return undefined;
    this.running.listened = true;
    return this.running.controller.signal;
  }

  /** Cancels the running job; false when none runs that listens to its signal. */
  cancelRunning(): boolean {
    const running = this.running;
    if (!running || !running.listened || running.controller.signal.aborted) return false;
    running.controller.abort(new LspgateError('CANCELLED', 'cancelled with Ctrl-C'));
    return true;
  }

  /** Settles once every job queued so far has. */
  idle(): Promise<unknown> {
    return this.tail;
  }
}

/** What the REPL prints for an error of an evaluated line: one line (an lspgate error as CODE: message). */
export function evalErrorText(e: unknown): string {
  if (e instanceof LspgateError) return formatError(e);
  // Errors thrown by the evaluated code come from the REPL's own context (another realm): not
  // `instanceof Error` here.
  if (typeof e === 'object' && e !== null && typeof (e as Error).message === 'string') {
    const { name, message } = e as Error;
    return `${typeof name === 'string' && name ? name : 'Error'}: ${message.split('\n')[0]}`;
  }
  return `Uncaught ${inspect(e, { depth: 1, breakLength: Infinity })}`;
}

/**
 * Serialise JavaScript with the commands, await what it returns, and answer its errors in one line.
 * REPLServer.eval is typed read-only but is a plain writable property (the 'line' handler reads it).
 */
export function serialiseEval(server: REPLServer, queue: SerialQueue, write: (s: string) => void, prompt: () => void): void {
  const mutable = server as unknown as { eval: EvalFn };
  const defaultEval = mutable.eval;
  let pending: { cb: EvalCallback; done: () => void; code: string } | undefined;
  onEvalError(server, (e) => {
    write(evalErrorText(e) + commandHint(server, pending?.code));
    const p = pending;
    pending = undefined;
    // the evaluation it ended: its callback shows the prompt; else (a timer's throw, a line that
    // node:repl itself reported) show it here
    if (p) {
      p.cb(null, undefined);
      p.done();
    } else prompt();
  });
  mutable.eval = (code, context, file, cb) => {
    void queue.enqueue(
      () =>
        new Promise<void>((done) => {
          const mine = { cb, done, code };
          pending = mine;
          defaultEval.call(server, code, context, file, (err, result) => {
            // already ended through the domain
            if (pending !== mine) return;
            pending = undefined;
            const hint = err && !(err instanceof Recoverable) ? commandHint(server, code) : '';
            if (hint) {
              write(evalErrorText(err) + hint);
              cb(null, undefined);
              return done();
            }
            if (err || !isThenable(result)) {
              cb(err, result);
              return done();
            }
            result.then(
              (v) => cb(null, v),
              (e: unknown) => {
                write(evalErrorText(e));
                cb(null, undefined);
              },
            );
            void result.then(
              () => done(),
              () => done(),
            );
          });
        }),
      { signalOnRequest: true },
    );
  };
}

/**
 * A line that failed as JavaScript but starts with a command's name (`refs helper`): the command
 * was meant, its dot forgotten. Said after the error, not run: the line may have been JavaScript.
 */
export function commandHint(server: REPLServer, code: string | undefined): string {
  const m = /^\s*([A-Za-z_][\w-]*)(?:\s|$)/.exec(code ?? '');
  if (!m || !Object.prototype.hasOwnProperty.call(server.commands, m[1]!)) return '';
  return `; did you mean .${code!.trim().slice(0, 200)}? (commands start with a dot; other input is JavaScript)`;
}

/** Replaces node:repl's domain error listener (the stack printer) by `handler`. */
function onEvalError(server: REPLServer, handler: (e: unknown) => void): void {
  // `_domain` is node:repl's own (Node 20–24); without it the REPL keeps node's behaviour.
  const domain = (server as unknown as { _domain?: EventEmitter })._domain;
  if (!domain || typeof domain.removeAllListeners !== 'function') return;
  domain.removeAllListeners('error');
  domain.on('error', handler);
}

function isThenable(v: unknown): v is Promise<unknown> {
  return typeof v === 'object' && v !== null && typeof (v as { then?: unknown }).then === 'function';
}
