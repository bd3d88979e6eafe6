/** Reading lspgate's JSON config files (servers.json, config.json), user's or workspace's. */
import { existsSync, readFileSync } from 'node:fs';

import { LspgateError } from '../errors/errors.js';

/** A JSON config file's content; undefined when it does not exist; INVALID_INPUT when it is not JSON. */
export function readJsonConfig(file: string): unknown {
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new LspgateError('INVALID_INPUT', `config file is not valid JSON: ${file}: ${(e as Error).message}`, { file });
  }
}
