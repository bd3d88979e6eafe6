/** The package version, read once from lspgate's own package.json. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../config/load.js';

let cached: string | undefined;

export function packageVersion(): string {
  cached ??= (JSON.parse(readFileSync(path.join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
  return cached;
}
