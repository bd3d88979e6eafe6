/**
 * Reading the user's curated data files (a flow corpus, a policy): data only, never executed, and
 * bounded like every parsed input — a byte cap before anything is read, a line cap, a length cap per
 * line and per string, and a nesting cap checked on the raw text before JSON.parse sees it (a line of
 * 10,000 `[` is refused without recursion). A file under the repository's `.lspgate/` is opened
 * without following a symlink (repository data must not read a file outside the repository); a file
 * the user names on the command line is theirs to point anywhere.
 */
import { constants } from 'node:fs';
import { lstat, open } from 'node:fs/promises';
import path from 'node:path';

import { sha256 } from '../util/hash.js';

export const MAX_DATA_BYTES = 4 * 1024 * 1024;
export const MAX_DATA_LINES = 20_000;
export const MAX_LINE_CHARS = 64 * 1024;
export const MAX_JSON_DEPTH = 8;
export const MAX_STRING = 4_000;
export const MAX_LIST = 200;

export interface DataFile {
  /** As named: absolute, or relative to the workspace root for a file under `.lspgate/`. */
  file: string;
  text: string;
  /** sha256 of the bytes. */
  hash: string;
}

/**
 * The file's text, undefined when it does not exist, or a problem (over the byte cap, not a regular
 * file, a symlink under the repository's `.lspgate/`).
 */
export async function readDataFile(abs: string, opts: { inRepository: boolean; root: string }): Promise<DataFile | { problem: string } | undefined> {
  const shown = opts.inRepository ? path.relative(opts.root, abs) : abs;
  if (opts.inRepository) {
    const dir = await lstat(path.dirname(abs)).catch(() => undefined);
    if (!dir) return undefined;
    if (!dir.isDirectory()) return { problem: `${path.dirname(shown)} is not a directory (a symlink is not followed): ${shown} not read` };
  }
  let fh;
  try {
    fh = await open(abs, constants.O_RDONLY | (opts.inRepository ? constants.O_NOFOLLOW : 0));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && opts.inRepository) return undefined;
    if (code === 'ELOOP') return { problem: `${shown} is a symlink: not followed, not read` };
    return { problem: `${shown} cannot be read (${code ?? 'error'})` };
  }
  try {
    const st = await fh.stat();
    if (!st.isFile()) return { problem: `${shown} is not a regular file: not read` };
    if (st.size > MAX_DATA_BYTES) return { problem: `${shown} is ${st.size} bytes, over the ${MAX_DATA_BYTES}-byte cap: not read` };
    const bytes = await fh.readFile();
    if (bytes.length > MAX_DATA_BYTES) return { problem: `${shown} grew over the ${MAX_DATA_BYTES}-byte cap: not read` };
    return { file: shown, text: bytes.toString('utf8'), hash: sha256(bytes) };
  } finally {
    await fh.close();
  }
}

/** The deepest nesting of `[`/`{` in a JSON text, outside its strings. */
export function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 92) i++;
      else if (ch === 34) inString = false;
    } else if (ch === 34) inString = true;
    else if (ch === 91 || ch === 123) max = Math.max(max, ++depth);
    else if (ch === 93 || ch === 125) depth--;
  }
  return max;
}

/** JSON.parse of a text within the caps; a message naming why when it is not. */
export function parseBounded(text: string, what: string, maxChars = MAX_LINE_CHARS): unknown {
  if (text.length > maxChars) throw new Error(`${what} is over ${maxChars} characters`);
  if (jsonDepth(text) > MAX_JSON_DEPTH) throw new Error(`${what} nests deeper than ${MAX_JSON_DEPTH}`);
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new Error(`${what} is not JSON: ${(e as Error).message.slice(0, 200)}`, { cause: e });
  }
}

/** Field readers that say what is wrong instead of taking a wrong type for absent. */
export class Fields {
  constructor(
    private readonly raw: Record<string, unknown>,
    private readonly where: string,
    readonly problems: string[],
  ) {}

  str(key: string, required = false): string | undefined {
    const v = this.raw[key];
    if (v === undefined || v === null) {
      if (required) this.problems.push(`${this.where}: "${key}" is required`);
      return undefined;
    }
    if (typeof v !== 'string') {
      this.problems.push(`${this.where}: "${key}" must be a string`);
      return undefined;
    }
    if (v.length > MAX_STRING) {
      this.problems.push(`${this.where}: "${key}" is over ${MAX_STRING} characters; cut`);
      return v.slice(0, MAX_STRING);
    }
    return v;
  }

  strs(key: string): string[] | undefined {
    const v = this.raw[key];
    if (v === undefined || v === null) return undefined;
    if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) {
      this.problems.push(`${this.where}: "${key}" must be a list of strings`);
      return undefined;
    }
    if (v.length > MAX_LIST) this.problems.push(`${this.where}: "${key}" has ${v.length} entries; the first ${MAX_LIST} are kept`);
    return (v as string[]).slice(0, MAX_LIST).map((s) => s.slice(0, MAX_STRING));
  }

  objs(key: string): Fields[] | undefined {
    const v = this.raw[key];
    if (v === undefined || v === null) return undefined;
    if (!Array.isArray(v) || v.some((x) => !isObject(x))) {
      this.problems.push(`${this.where}: "${key}" must be a list of objects`);
      return undefined;
    }
    if (v.length > MAX_LIST) this.problems.push(`${this.where}: "${key}" has ${v.length} entries; the first ${MAX_LIST} are kept`);
    return v.slice(0, MAX_LIST).map((x, i) => new Fields(x as Record<string, unknown>, `${this.where} ${key}[${i}]`, this.problems));
  }

  sub(key: string): Fields | undefined {
    const v = this.raw[key];
    if (v === undefined || v === null) return undefined;
    if (!isObject(v)) {
      this.problems.push(`${this.where}: "${key}" must be an object`);
      return undefined;
    }
    return new Fields(v, `${this.where} ${key}`, this.problems);
  }

  num(key: string): number | undefined {
    const v = this.raw[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      this.problems.push(`${this.where}: "${key}" must be a number`);
      return undefined;
    }
    return v;
  }

  /** Keys outside `known` are a problem: a misspelt field is never silently ignored. */
  only(known: readonly string[]): void {
    for (const k of Object.keys(this.raw)) if (!known.includes(k)) this.problems.push(`${this.where}: unknown field "${k.slice(0, 60)}"`);
  }
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
