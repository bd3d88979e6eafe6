/** Files a manifest field names (package.json `main`/`bin`/`exports`, composer.json `bin`), as project entry points. */
import path from 'node:path';

import type { ProjectEntry } from './language-profile.js';

/** A string, an array, or an object (conditional exports, named bins) of them; `./x` as `x`. */
export function manifestFiles(field: string, v: unknown): ProjectEntry[] {
  if (typeof v === 'string') return [{ file: path.posix.normalize(v.replace(/^\.\//, '')), reason: field }];
  if (Array.isArray(v)) return v.flatMap((x) => manifestFiles(field, x));
  if (v && typeof v === 'object') return Object.values(v).flatMap((x) => manifestFiles(field, x));
  return [];
}
