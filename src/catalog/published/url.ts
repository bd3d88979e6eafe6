/**
 * How a PostgreSQL address is said anywhere lspgate writes (logs, answers, errors): never with its
 * password. A URL's password is replaced by `***`, and so is the value of any `password=` in a
 * keyword/value string or in a URL's query; the text of a driver error is passed through the same
 * filter, with the password itself (when one was given) blanked wherever it appears.
 */

const MASK = '***';

/** `postgres://user:secret@host/db?password=x` → `postgres://user:***@host/db?password=***`; any other text keeps its shape. */
export function redactUrl(url: string): string {
  return redactText(url, url);
}

/** `text` without the password of `url` (or of any URL or `password=` inside `text`). */
export function redactText(text: string, url?: string): string {
  let out = text
    // user:password@ in any URL-looking text
    .replace(/(\b[a-z][a-z0-9+.-]*:\/\/[^/\s:@]*:)[^@\s/]*@/gi, `$1${MASK}@`)
    // password=... in a query string or a keyword/value connection string (quoted or not)
    .replace(/(\bpassword\s*=\s*)('(?:[^'\\]|\\.)*'|[^\s&;]*)/gi, `$1${MASK}`);
  const secret = url ? passwordOf(url) : undefined;
  // a driver may quote the password on its own (never seen, but a filter that relies on shapes alone would miss it)
  if (secret && secret.length >= 3) out = out.split(secret).join(MASK);
  return out;
}

/** The password a URL or keyword/value string carries, if any (decoded). */
export function passwordOf(url: string): string | undefined {
  const inUserInfo = /^[a-z][a-z0-9+.-]*:\/\/[^/@:\s]*:([^@/\s]*)@/i.exec(url)?.[1];
  const inQuery = /[?&]password=([^&#\s]*)/i.exec(url)?.[1];
  const keyword = /\bpassword\s*=\s*('(?:[^'\\]|\\.)*'|[^\s&;]*)/i.exec(url)?.[1]?.replace(/^'|'$/g, '');
  const raw = inUserInfo || inQuery || keyword;
  if (!raw) return undefined;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** Whether `url` is an address lspgate accepts for --to / --index. */
export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}
