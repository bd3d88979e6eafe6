/**
 * Files that may be absent or malformed (package.json, composer.json, go.mod, pyproject.toml at a
 * root): undefined instead of an error, for the reports that only describe what is there.
 */
import { readFileSync } from 'node:fs';

/** The file's UTF-8 text, or undefined when it cannot be read. */
export function readTextIfAny(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** The file's JSON object, or undefined when it is absent, not JSON, or not an object. */
export function readJsonObjectIfAny(file: string): Record<string, unknown> | undefined {
  const text = readTextIfAny(file);
  if (text === undefined) return undefined;
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
