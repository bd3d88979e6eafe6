import { readFileSync } from 'node:fs';
import path from 'node:path';

import { writePrivateFile } from '../util/private-files.js';

/**
 * total_tokens_saved, persisted across runs in `<cacheDir>/savings.json`. Writes are batched
 * (at most one per second) and flushed on close, so a hot loop of calls costs no I/O each.
 */
export class SavingsLedger {
  private total: number;
  private timer: NodeJS.Timeout | undefined;
  private readonly file: string;

  constructor(cacheDir: string) {
    this.file = path.join(cacheDir, 'savings.json');
    this.total = readTotal(this.file);
  }

  add(tokens: number): number {
    if (tokens > 0) {
      this.total += tokens;
      this.timer ??= setTimeout(() => this.flush(), 1000).unref();
    }
    return this.total;
  }

  get value(): number {
    return this.total;
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    try {
      writePrivateFile(this.file, JSON.stringify({ total_tokens_saved: this.total, updated_at: new Date().toISOString() }));
    } catch {
      // A read-only cache dir must not fail the call that produced the savings.
    }
  }
}

function readTotal(file: string): number {
  try {
    const v = JSON.parse(readFileSync(file, 'utf8')) as { total_tokens_saved?: unknown };
    return typeof v.total_tokens_saved === 'number' && Number.isFinite(v.total_tokens_saved) ? v.total_tokens_saved : 0;
  } catch {
    return 0;
  }
}
