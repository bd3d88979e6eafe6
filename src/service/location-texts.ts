/**
 * The texts locations are measured in, and what measuring them makes, kept process-wide and bounded
 * in bytes: a pure memo of a text (the disk's texts are disk-texts.ts), shared by every workspace
 * since a location may land in any file, a library's included.
 */
import { LRUCache } from 'lru-cache';

import type { FileContext } from '../adapters/types.js';
import { lineStarts } from '../lsp/positions.js';
import { containsPrivateKey } from '../util/secret-files.js';
import { diskText } from './disk-texts.js';
import { splitLines } from './file-context.js';

/** One file's lines as read for an answer, with what every location in it needs (made once). */
export interface LinesOf {
  lines: string[];
  /** The lines joined with `\n` (what positions are measured in). */
  text: string;
  secret: boolean;
  starts: number[];
}

/**
 * What a text's locations need, made once per content: a warm definition measured its target
 * file every call (split, join, key scan, line starts: ~1 ms for typescript's lib.es5.d.ts,
 * where many of zod's definitions land). Keyed by the text itself, so never stale; frozen.
 */
export const TEXT_MEASURES = new LRUCache<string, LinesOf>({ maxSize: 64 * 1024 * 1024, sizeCalculation: (v, k) => 4 * (k.length + 1) });

export function measure(source: string): LinesOf {
  const known = TEXT_MEASURES.get(source);
  if (known) return known;
  const lines = Object.freeze(splitLines(source)) as string[];
  const text = lines.join('\n');
  const f: LinesOf = Object.freeze({ lines, text, secret: containsPrivateKey(text), starts: lineStarts(text) });
  TEXT_MEASURES.set(source, f);
  return f;
}

/** The text a location is measured in: the open document when the server has it, else the disk's ('' when unreadable). */
export function sourceText(absPath: string, session: FileContext['session']): string {
  const doc = session.getDocument(absPath);
  if (doc) return doc.text;
  return diskText(absPath) ?? '';
}
