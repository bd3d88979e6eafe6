/**
 * Names before the pass: a name asked while a cold build's syntax pass is still running is not made
 * to wait for every file to be parsed (on 3,500 files that doubled a definition by name against the
 * same question by position). The files the pass has not answered yet are read once and searched
 * for the name's last segment as a whole word; those that hold it — the only ones of them that can
 * declare it — are parsed at once, ahead of the pass, and the index answers from every file parsed
 * so far plus those. The text search only chooses what to parse first: the answer still comes from
 * parse trees, and it is marked as given while the catalog was building. Whatever the search cannot
 * vouch for (a file it could not read, a file that would not parse, a name held by more files than
 * are worth parsing ahead) sends the question back to waiting for the pass, and so does a pass with
 * little left to do.
 */
import { readFileSync } from 'node:fs';

import { splitQualified } from './name-match.js';
import type { WalkedFile } from './walk.js';

/** More files than this holding the name: parsing them ahead is most of the pass; the pass answers. */
export const MAX_PARSED_AHEAD = 200;
/**
 * Fewer files than this left to parse: the pass ends within a second or two, and its answer is
 * complete and unmarked (a small workspace answers as it did before).
 */
export const MIN_UNPARSED = 200;
/** The longest the search holds the thread that answers every client before letting others run. */
const SLICE_MS = 15;

/** What the syntax tier offers (syntax-tier.ts SyntaxEntries). */
export interface EarlyNamesHost {
  /** The running pass's files not answered yet; undefined when no pass runs. */
  unparsed(): WalkedFile[] | undefined;
  /** One of them parsed now, ahead of its turn; false when it could not be. */
  parseAhead(f: WalkedFile): Promise<boolean>;
}

/** How an answer given before the pass ended was found (said in the answer's `_meta.warnings`). */
export interface EarlyLookup {
  /** Files the pass had not parsed yet when the name was asked (all read and searched). */
  unparsed: number;
  /** Of those, the files holding the name as a whole word: parsed ahead of the pass. */
  parsedAhead: number;
}

/**
 * Parses first the unparsed files of the running pass that can declare `name`; undefined when no
 * pass runs or the question must wait for it (see the file comment).
 */
export async function parseDeclarersFirst(
  host: EarlyNamesHost,
  name: string,
  onHolders?: (files: string[]) => void,
  signal?: AbortSignal,
): Promise<EarlyLookup | undefined> {
  const files = host.unparsed();
  const word = splitQualified(name).at(-1);
  if (!files || !word || files.length < MIN_UNPARSED) return undefined;
  const holders = await filesHolding(files, word, signal);
  if (!holders || holders.length > MAX_PARSED_AHEAD) return undefined;
  if (holders.length) onHolders?.(holders.map((f) => f.abs));
  const parsed = await Promise.all(holders.map((f) => host.parseAhead(f)));
  if (parsed.includes(false)) return undefined;
  return { unparsed: files.length, parsedAhead: holders.length };
}

/**
 * The files whose bytes hold `word` as a whole word; undefined when one could not be read. Read
 * synchronously in slices of SLICE_MS with a turn of the event loop between them: 3,500 small files
 * took 88 ms so, against 409 ms as 16 concurrent asynchronous reads (the thread pool's round trips).
 */
async function filesHolding(files: WalkedFile[], word: string, signal?: AbortSignal): Promise<WalkedFile[] | undefined> {
  const needle = Buffer.from(word, 'utf8');
  const out: WalkedFile[] = [];
  for (let i = 0; i < files.length;) {
    if (signal?.aborted) return undefined;
    const started = performance.now();
    for (; i < files.length && performance.now() - started < SLICE_MS; i++) {
      const bytes = readOrUndefined(files[i]!.abs);
      if (!bytes) return undefined;
      if (holdsWord(bytes, needle)) out.push(files[i]!);
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  return out;
}

function readOrUndefined(abs: string): Buffer | undefined {
  try {
    return readFileSync(abs);
  } catch {
    return undefined;
  }
}

/** Bytes that continue an identifier: ASCII letters, digits, `_`, `$`, and any byte of a multi-byte UTF-8 character. */
function continuesWord(b: number | undefined): boolean {
  if (b === undefined) return false;
  return (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) || b === 0x5f || b === 0x24 || b >= 0x80;
}

/** Whether `needle` occurs in `bytes` with no identifier byte glued to either end (where its own end is one). */
export function holdsWord(bytes: Buffer, needle: Buffer): boolean {
  const checkBefore = continuesWord(needle[0]);
  const checkAfter = continuesWord(needle[needle.length - 1]);
  for (let at = bytes.indexOf(needle); at >= 0; at = bytes.indexOf(needle, at + 1)) {
    if (checkBefore && at > 0 && continuesWord(bytes[at - 1])) continue;
    if (checkAfter && continuesWord(bytes[at + needle.length])) continue;
    return true;
  }
  return false;
}
