/**
 * Tree walks without JS recursion, in the order a recursive walk takes: a step (what a recursive
 * reader did in one call before its next call in) asks for the steps that follow it with `then`,
 * and those run — each with the steps it asks for in turn — before anything asked for earlier in
 * the walk. A recursive walk overflowed the stack past a few thousand levels of nesting (a
 * hostile file nests 100,000 deep); this one keeps its pending steps on the heap, so depth costs
 * memory proportional to it and nothing else.
 *
 * A recursive reader becomes steps by one rule: whatever ran after a recursive call (a container
 * restored, a later sibling, the next branch) is itself asked for with `then`, in the same order,
 * after the step that replaced the call.
 */
import { LspgateError } from '../errors/errors.js';

export type Step = () => void;

export class WalkSteps {
  /** Steps still to run, the next one last. */
  private readonly pending: Step[] = [];
  /** What the running step asked for, in order: pushed on `pending` (last first) when it returns. */
  private asked: Step[] = [];
  private running = false;

  /** Asks for a step after the running one (and after the steps it asked for before this one). */
  then(step: Step): void {
    this.asked.push(step);
  }

  /** Runs `first` and every step it leads to; returns when none is left. Not reentrant. */
  run(first: Step): void {
    if (this.running) throw new LspgateError('INTERNAL', 'a tree walk started inside a step of another: steps are asked for with then()');
    this.running = true;
    this.pending.length = 0;
    this.asked = [];
    try {
      for (let step: Step | undefined = first; step; step = this.pending.pop()) {
        step();
        for (let i = this.asked.length - 1; i >= 0; i--) this.pending.push(this.asked[i]!);
        this.asked.length = 0;
      }
    } finally {
      this.running = false;
      this.pending.length = 0;
      this.asked = [];
    }
  }
}
