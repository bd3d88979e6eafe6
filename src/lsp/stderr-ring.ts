/**
 * The last lines of a server's stderr, bounded in lines and bytes (a server that never prints a
 * newline cannot grow it either: a partial line is cut at `maxLineChars`).
 */
export class StderrRing {
  private lines: string[] = [];
  private bytes = 0;
  private partial = '';
  totalBytes = 0;

  constructor(
    private readonly maxLines = 200,
    private readonly maxBytes = 64 * 1024,
    private readonly maxLineChars = 4096,
  ) {}

  /** Appends a chunk; returns the complete lines it finished (for the debug log). */
  push(chunk: string): string[] {
    this.totalBytes += chunk.length;
    const parts = (this.partial + chunk).split(/\r?\n/);
    this.partial = parts.pop() ?? '';
    if (this.partial.length > this.maxLineChars) {
      parts.push(this.partial.slice(0, this.maxLineChars) + ' …[cut]');
      this.partial = '';
    }
    const done: string[] = [];
    for (const raw of parts) {
      const line = raw.length > this.maxLineChars ? raw.slice(0, this.maxLineChars) + ' …[cut]' : raw;
      done.push(line);
      this.lines.push(line);
      this.bytes += line.length + 1;
    }
    while (this.lines.length > this.maxLines || (this.bytes > this.maxBytes && this.lines.length > 1)) {
      this.bytes -= this.lines.shift()!.length + 1;
    }
    return done;
  }

  tail(n = this.maxLines): string[] {
    const all = this.partial ? [...this.lines, this.partial] : this.lines;
    return all.slice(-n);
  }
}
