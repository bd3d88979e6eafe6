/** The package version, read once from package.json (two levels above dist/src or src). */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

export function packageVersion(): string {
  if (cached !== undefined) return cached;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    try {
      const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'lspgate' && pkg.version) return (cached = pkg.version);
    } catch {
      // not here: keep walking up
    }
    dir = path.dirname(dir);
  }
  return (cached = '0.0.0');
}
