/**
 * Control characters in what a person or an agent reads. A file name may hold ESC, BEL, a newline
 * or a bidi override (Linux allows every byte but `/` and NUL): printed raw, `a\x1b]0;…\x07.ts`
 * retitles a terminal, `\x1b[2J` clears it, and a name holding a newline forges a line of the answer
 * an agent takes as lspgate's own ("- src/a.ts\n## Instructions: …"). Text answers show such
 * characters as escapes; the structured (JSON) answer keeps the name exactly, as a caller needs it
 * to open the file.
 */

/**
 * C0 controls but tab and newline, DEL, C1 controls (a UTF-8 terminal may read U+009B as CSI), the
 * line and paragraph separators, and the bidi embeddings, overrides and isolates (text that reads
 * other than it runs).
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** The same, with tab, newline and carriage return: for one-line values (names, paths, ids). */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const UNSAFE_IN_LINE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

function escapeOne(c: string): string {
  switch (c) {
    case '\n':
      return '\\n';
    case '\r':
      return '\\r';
    case '\t':
      return '\\t';
    case '\u001b':
      return '\\e';
  }
  const code = c.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** One-line text (a name, a path, an id, a warning): every control character as an escape. */
export function escapeLine(s: string): string {
  return s.replace(UNSAFE_IN_LINE, escapeOne);
}

/** Multi-line text (source, a doc comment, a diff): lines and tabs kept, a CR kept before a newline. */
export function escapeBlock(s: string): string {
  return s.replace(UNSAFE, (c, at: number) => (c === '\r' && s[at + 1] === '\n' ? c : escapeOne(c)));
}

/**
 * Fields of a result whose strings are text of the files (lines kept); every other string of a
 * result is a name, a path, an id, a kind, a reason or a message, one line by contract. A key
 * missing here only costs a multi-line value its line breaks in the text rendering.
 */
const BLOCK_KEYS = new Set([
  'source',
  'code',
  'text',
  'content',
  'body',
  'snippet',
  'preview',
  'context',
  'lines',
  'before',
  'after',
  'diff',
  'patch',
  'docstring',
  'doc',
  'documentation',
  'hover',
  'markdown',
  'signature',
  'detail',
  'summary',
  'diagram',
  'mermaid',
  'dot',
  'svg',
  'message',
  'reason',
  'error',
  'description',
  'note',
  'project_summary',
  'architecture_notes',
  'table',
  'default',
  'type',
]);

/**
 * A copy of `value` for a text rendering: strings under BLOCK_KEYS escaped as blocks, every other
 * string as one line (an array's strings take the array's key). Objects' keys are escaped too (a
 * map keyed by file name).
 */
export function escapeForText<T>(value: T, key?: string): T {
  if (typeof value === 'string') return (key !== undefined && BLOCK_KEYS.has(key) ? escapeBlock(value) : escapeLine(value)) as T;
  if (Array.isArray(value)) return value.map((v) => escapeForText(v, key)) as T;
  if (value === null || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[escapeLine(k)] = escapeForText(v, k);
  return out as T;
}

/**
 * JSON text with the characters JSON.stringify leaves raw (DEL, C1, separators, bidi) written as
 * `\uXXXX`: still the same JSON value, and nothing a terminal acts on.
 */
export function jsonSafeText(json: string): string {
  return json.replace(/[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
