/**
 * Files' texts on disk as locations and the edit path read them, kept process-wide and bounded in
 * bytes: a pure memo of a file's (path, mtime, size, inode), shared by every workspace since a
 * location may land in any file, a library's included.
 */
import { readFileSync, statSync } from 'node:fs';

import { LRUCache } from 'lru-cache';

/** Text of files not open in the server, with the stat it was read at (re-read when the stat moves). */
export const DISK_TEXTS = new LRUCache<string, { mtimeMs: number; size: number; ino: number; text: string }>({
  maxSize: 32 * 1024 * 1024,
  sizeCalculation: (v) => 2 * (v.text.length + 1),
});

/**
 * A file's text on disk, re-read unless mtime, size and inode are those of the last read (the
 * rule CachedSession trusts for open documents); undefined when it is no readable regular file.
 */
export function diskText(absPath: string): string | undefined {
  const st = statSync(absPath, { throwIfNoEntry: false });
  if (!st?.isFile()) return undefined;
  const known = DISK_TEXTS.get(absPath);
  if (known && known.mtimeMs === st.mtimeMs && known.size === st.size && known.ino === st.ino) return known.text;
  let text: string;
  try {
    text = readFileSync(absPath, 'utf8');
  } catch {
    return undefined;
  }
  DISK_TEXTS.set(absPath, { mtimeMs: st.mtimeMs, size: st.size, ino: st.ino, text });
  return text;
}
