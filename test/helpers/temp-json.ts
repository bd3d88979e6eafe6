import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterEach } from 'vitest';

/** Temporary folders (real paths) removed after each test of the file, and a JSON writer making its folders. */
export function tempJsonFiles(prefix: string): { tempDir(): string; write(file: string, data: unknown): void } {
  const made: string[] = [];
  afterEach(() => {
    for (const d of made.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });
  return {
    tempDir() {
      const d = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
      made.push(d);
      return d;
    },
    write(file, data) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, JSON.stringify(data));
    },
  };
}
