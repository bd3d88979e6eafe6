/**
 * One string instance for the values many symbols repeat. An entry parsed in a worker thread (or read
 * from the cache's JSON) arrives with a fresh copy of every string in every symbol: a generated
 * 3,500-file repository held 172,400 copies each of its language and its server's name, a copy of
 * the file's path per symbol and of the parent's id per child — about a fifth of the catalog's heap.
 * Sharing them is done once per entry, when the index takes it.
 */
import type { FileEntry } from '../core/catalog.js';
import { ownString } from '../util/bounded-memo.js';

/**
 * Values with few distinct spellings in a workspace (languages, server ids, kinds, packages); bounded, so a
 * workspace with very many packages keeps only the first. Each is kept as a string of its own: a package
 * name cut from a file's text would otherwise keep that whole text for the life of the process.
 */
const FEW = new Map<string, string>();
const FEW_MAX = 8192;

function few<T extends string>(s: T): T {
  const known = FEW.get(s) as T | undefined;
  if (known !== undefined) return known;
  if (FEW.size >= FEW_MAX) return s;
  const own = ownString(s);
  FEW.set(own, own);
  return own;
}

/** Makes the symbols of `entry` share their repeated strings, in place; `rel` is the file's path. */
export function shareStrings(rel: string, entry: FileEntry): void {
  entry.language = few(entry.language);
  entry.server = few(entry.server);
  const ids = new Map<string, string>();
  for (const s of entry.symbols) ids.set(s.symbol_id, s.symbol_id);
  for (const s of entry.symbols) {
    if (s.file === rel) s.file = rel;
    s.language = entry.language === s.language ? entry.language : few(s.language);
    s.server = entry.server === s.server ? entry.server : few(s.server);
    s.kind = few(s.kind);
    if (s.parent !== undefined) s.parent = ids.get(s.parent) ?? s.parent;
    if (s.package !== undefined) s.package = few(s.package);
    if (s.namespace !== undefined) s.namespace = few(s.namespace);
  }
}
