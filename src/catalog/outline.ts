/**
 * Repository structure from the catalog: get_repo_outline (directories, languages, symbol kinds)
 * and get_file_tree (nested tree with language and symbol count per file).
 */
import type { FileEntry, SymbolTally } from '../core/catalog.js';

export interface RepoOutline {
  files: number;
  symbols: number;
  directories: { path: string; files: number; symbols: number }[];
  languages: Record<string, number>;
  symbol_kinds: Record<string, number>;
}

/**
 * The outline of one catalog version, per depth: an index that has not changed gives the same
 * outline, so it is made once (a copy is handed out each time).
 */
const made = new WeakMap<ReadonlyMap<string, FileEntry>, { version: number; depth: number; outline: RepoOutline }[]>();

/** repoOutline of the catalog at `version` (SymbolIndex.version), made once per version and depth. */
export function repoOutlineAt(files: ReadonlyMap<string, FileEntry>, version: number, depth: number, tally?: SymbolTally): RepoOutline {
  let list = made.get(files);
  if (!list || list[0]?.version !== version) made.set(files, (list = []));
  let hit = list.find((m) => m.depth === depth);
  if (!hit) list.push((hit = { version, depth, outline: repoOutline(files, depth, tally) }));
  return structuredClone(hit.outline);
}

/**
 * With `tally` the symbols are counted without being read (the catalog's database counts the stored
 * ones); without, each file's `symbols` is read.
 */
export function repoOutline(files: ReadonlyMap<string, FileEntry>, depth: number, tally?: SymbolTally): RepoOutline {
  const dirs = new Map<string, { files: number; symbols: number }>();
  // Maps, not records: a symbol kind is literally `constructor` (and counting into a Map is
  // several times faster than into a dictionary-mode object over 24k symbols).
  const languages = new Map<string, number>();
  let kinds = new Map<string, number>();
  let symbols = 0;
  for (const [rel, entry] of files) {
    const parts = rel.split('/').slice(0, -1);
    const dir = parts.slice(0, depth).join('/') || '.';
    const d = dirs.get(dir) ?? { files: 0, symbols: 0 };
    const count = tally ? tally.count(rel) : entry.symbols.length;
    d.files++;
    d.symbols += count;
    dirs.set(dir, d);
    languages.set(entry.language, (languages.get(entry.language) ?? 0) + 1);
    if (!tally) for (const s of entry.symbols) kinds.set(s.kind, (kinds.get(s.kind) ?? 0) + 1);
    symbols += count;
  }
  if (tally) kinds = tally.kinds();
  return {
    files: files.size,
    symbols,
    directories: [...dirs].map(([path, d]) => ({ path, ...d })).sort((a, b) => a.path.localeCompare(b.path)),
    languages: sortRecord(languages),
    symbol_kinds: sortRecord(kinds),
  };
}

function sortRecord(r: Map<string, number>): Record<string, number> {
  return Object.fromEntries([...r].sort(([a, x], [b, y]) => y - x || a.localeCompare(b)));
}

export interface TreeNode {
  name: string;
  path: string;
  type: 'directory' | 'file';
  language?: string;
  symbols?: number;
  /** Directories: files below (all depths). */
  files?: number;
  children?: TreeNode[];
}

/** Nested tree of the cataloged files under `prefix` (a directory, '' = root), `depth` levels deep. */
export function fileTree(files: ReadonlyMap<string, FileEntry>, prefix: string, depth: number): TreeNode {
  const root: TreeNode = { name: prefix.split('/').pop() || '.', path: prefix || '.', type: 'directory', files: 0, symbols: 0, children: [] };
  for (const [rel, entry] of [...files].sort(([a], [b]) => a.localeCompare(b))) {
    if (prefix && !rel.startsWith(prefix + '/') && rel !== prefix) continue;
    const parts = (prefix ? rel.slice(prefix.length + 1) : rel).split('/');
    let node = root;
    node.files!++;
    node.symbols! += entry.symbols.length;
    for (let i = 0; i < parts.length - 1; i++) {
      if (i >= depth - 1) break;
      const p = (prefix ? prefix + '/' : '') + parts.slice(0, i + 1).join('/');
      let child = node.children!.find((c) => c.path === p);
      if (!child) node.children!.push((child = { name: parts[i]!, path: p, type: 'directory', files: 0, symbols: 0, children: [] }));
      node = child;
      node.files!++;
      node.symbols! += entry.symbols.length;
    }
    if (parts.length - 1 < depth)
      node.children!.push({ name: parts[parts.length - 1]!, path: rel, type: 'file', language: entry.language, symbols: entry.symbols.length });
  }
  prune(root);
  return root;
}

function prune(node: TreeNode): void {
  if (!node.children) return;
  if (node.children.length === 0) delete node.children;
  else {
    node.children.sort((a, b) => (a.type === b.type ? a.name.localeCompare(b.name) : a.type === 'directory' ? -1 : 1));
    node.children.forEach(prune);
  }
}
