/**
 * One progress update as the CLI prints it on a terminal's stderr while a call waits (servers
 * starting and loading, with their progress): the same line from the CLI's own process and from a
 * thin client of the daemon, which loads node builtins and src/link only.
 */

/**
 * Control characters, line separators and bidi controls: a message names servers and paths, and a
 * path may hold ESC or a newline (printed raw, it could retitle or clear the terminal).
 */
const UNSAFE = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;

/** The line for one `{progress, total, message}` value, or undefined when it carries no message. */
export function progressLine(value: unknown): string | undefined {
  const v = value as { progress?: unknown; total?: unknown; message?: unknown } | undefined;
  if (!v || typeof v !== 'object' || typeof v.message !== 'string') return undefined;
  const of = typeof v.progress === 'number' && typeof v.total === 'number' ? ` [${Math.floor(v.progress)}/${v.total}]` : '';
  const message = v.message.slice(0, 1000).replace(UNSAFE, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`);
  return `lspgate: ${message}${of}\n`;
}
