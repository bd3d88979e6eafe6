/**
 * When to give up on a server (vscode-languageclient's habit): restart after a crash, but after
 * `maxCrashes` crashes within `windowMs` the session is failed for good, and says so.
 */
export interface CrashRecord {
  at: number;
  reason: string;
}

export class RestartPolicy {
  private crashes: CrashRecord[] = [];

  constructor(
    readonly maxCrashes: number,
    readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Records a crash; returns true when the server must now be considered failed. */
  recordCrash(reason: string): boolean {
    const t = this.now();
    this.crashes.push({ at: t, reason });
    this.crashes = this.crashes.filter((c) => t - c.at <= this.windowMs);
    return this.maxCrashes > 0 && this.crashes.length >= this.maxCrashes;
  }

  /** Crashes inside the current window. */
  recent(): CrashRecord[] {
    const t = this.now();
    return this.crashes.filter((c) => t - c.at <= this.windowMs);
  }
}
