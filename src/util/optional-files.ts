/**
 * Files that may be absent or malformed (package.json, composer.json, go.mod, pyproject.toml at a
 * root): undefined instead of an error, for the reports that only describe what is there. They are
 * parsed on the event loop, so a file over `maxBytes` is not read at all (a 500 MB package.json
 * would hold every other call while JSON.parse ran): the caller hears of it through `tooLarge` and
 * says so in its answer.
 */
import { readFileSync, statSync } from 'node:fs';

export interface ReadBound {
  maxBytes: number;
  /** Told the size of a file that was not read because it is over maxBytes. */
  tooLarge?: (file: string, bytes: number) => void;
}

/** The file's UTF-8 text, or undefined when it cannot be read or is over the bound. */
export function readTextIfAny(file: string, bound: ReadBound): string | undefined {
  try {
    const size = statSync(file).size;
    if (size > bound.maxBytes) {
      bound.tooLarge?.(file, size);
      return undefined;
    }
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** The file's JSON object, or undefined when it is absent, over the bound, not JSON, or not an object. */
export function readJsonObjectIfAny(file: string, bound: ReadBound): Record<string, unknown> | undefined {
  const text = readTextIfAny(file, bound);
  if (text === undefined) return undefined;
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
