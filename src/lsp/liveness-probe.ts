/**
 * Whether a server that let a background request time out still answers anything at all.
 *
 * A background timeout alone does not make a server hung: tsserver starved by a bulk catalog build
 * answers late, and a server that never answers one method still answers the others, so such
 * timeouts do not count toward `maxConsecutiveTimeouts` (the build would kill its own server). But
 * a server that is stopped (SIGSTOP) or wedged answers nothing, and the background work queued
 * behind it (the import graph an `imports-me` query waits for) then spent a full timeout on every
 * file, over 300 s, with no restart. So after a background timeout the session asks the server a
 * question every live server answers at once: the LSP spec says a request whose method starts
 * with `$/` that the server does not know must be answered with MethodNotFound — an error, which
 * is still an answer. No answer within the request timeout either: the server is hung.
 */
import { LspgateError } from '../errors/errors.js';
import type { Generation } from './generation.js';

export const PROBE_METHOD = '$/lspgate/alive';

export class LivenessProbe {
  private running: { gen: Generation; answered: Promise<boolean> } | undefined;

  /**
   * True when `gen` answered the probe within `timeoutMs` (any answer, an error included); one
   * probe at a time per generation: callers that time out together share it.
   */
  answers(gen: Generation, timeoutMs: number): Promise<boolean> {
    if (this.running?.gen === gen) return this.running.answered;
    // the probe goes straight to the server, not through the request slots its hung requests hold
    const answered = gen.send(PROBE_METHOD, undefined, {}, timeoutMs).then(
      () => true,
      // a crash is not "hung": the exit handler deals with it
      (e: unknown) => !(e instanceof LspgateError && e.code === 'TIMEOUT'),
    );
    const running = {
      gen,
      answered: answered.finally(() => {
        if (this.running === running) this.running = undefined;
      }),
    };
    this.running = running;
    return running.answered;
  }
}
