/**
 * What a request timeout says about the server. A stopped process in its tree (a stopped tsserver
 * under a running wrapper) makes it hung at once. An interactive timeout counts: after
 * `maxConsecutiveTimeouts` in a row the server is reset. A background timeout does not count (a bulk
 * build starves the server it waits on) but asks the liveness probe: a server that answers nothing
 * at all is reset (liveness-probe.ts).
 */
import type { ServerEntry } from '../config/schema.js';
import type { Generation } from './generation.js';
import { LivenessProbe, PROBE_METHOD } from './liveness-probe.js';

export class TimeoutWatch {
  private consecutive = 0;
  private readonly probe = new LivenessProbe();

  constructor(private readonly entry: ServerEntry) {}

  /** A request was answered (or a new generation starts): the count starts again. */
  answered(): void {
    this.consecutive = 0;
  }

  /** A request to `gen` timed out; `reset` is called with the reason when the server must be restarted (now or once the probe says so). */
  timedOut(gen: Generation, background: boolean, reset: (reason: string) => void): void {
    const stopped = gen.stoppedReason();
    if (stopped) reset(`a request timed out and ${stopped}`);
    else if (background) this.probeAfter(gen, reset);
    else if (gen.alive && ++this.consecutive >= this.entry.restart.maxConsecutiveTimeouts) {
      this.consecutive = 0;
      reset(`${this.entry.restart.maxConsecutiveTimeouts} consecutive request timeouts`);
    }
  }

  private probeAfter(gen: Generation, reset: (reason: string) => void): void {
    const ms = this.entry.timeouts.requestMs;
    void this.probe.answers(gen, ms).then((answered) => {
      // the wrapper may answer the probe itself while the child that does the work is stopped
      const stopped = gen.stoppedReason();
      if (stopped) reset(`a background request timed out and ${stopped}`);
      else if (!answered) reset(`no answer to a background request, nor to ${PROBE_METHOD} within ${ms} ms: the server answers nothing (stopped or hung)`);
    });
  }
}
