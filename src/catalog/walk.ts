/**
 * The workspace walk: every file that passes the file-safety pipeline (file-filter.ts), plus the
 * checks that need I/O (size, binary sniff, generated marker, symlink containment) and the
 * file-count limit with priority to the usual source folders. Every skip is counted.
 */
import type { Dirent } from 'node:fs';
import { open, readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { LimitHit } from '../schema/meta.js';
import { isInside, toRelative } from '../util/paths.js';
import { FileFilter, hasNulByte, looksGenerated, type FilterOptions, type SkipReason } from './file-filter.js';

export interface WalkOptions extends FilterOptions {
  maxFileBytes: number;
  maxFiles: number;
  followSymlinks?: boolean;
  signal?: AbortSignal;
}

export interface WalkedFile {
  abs: string;
  /** Workspace-relative with `/`. */
  rel: string;
  size: number;
  mtimeMs: number;
}

export interface WalkResult {
  files: WalkedFile[];
  skipped: Partial<Record<SkipReason, number>>;
  limitsHit: LimitHit[];
  /** Absolute directories entered (the watcher watches exactly these). */
  directories: string[];
}

const SNIFF_BYTES = 8192;
const PRIORITY_DIRS = new Set(['src', 'lib', 'pkg', 'cmd', 'internal', 'app']);

export async function walkWorkspace(root: string, opts: WalkOptions, filter = new FileFilter(root, opts)): Promise<WalkResult> {
  const skipped: WalkResult['skipped'] = {};
  const skip = (why: SkipReason) => void (skipped[why] = (skipped[why] ?? 0) + 1);
  const candidates: WalkedFile[] = [];
  const directories: string[] = [];
  const visited = new Set<string>();
  const queue = [root];
  const seenFiles = new Set<string>();
  while (queue.length) {
    if (opts.signal?.aborted) break;
    const dir = queue.shift()!;
    if (visited.has(dir)) continue;
    visited.add(dir);
    directories.push(dir);
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      skip('unreadable');
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const ent of entries) {
      const found = await entryOf(root, dir, ent, opts);
      if (found === undefined) continue;
      if (typeof found === 'string') {
        skip(found);
        continue;
      }
      const { abs, rel, isDir } = found;
      if (isDir) {
        const why = filter.directory(rel);
        if (why) skip(why);
        else queue.push(abs);
        continue;
      }
      if (seenFiles.has(rel)) continue;
      seenFiles.add(rel);
      const why = filter.file(rel);
      if (why) {
        skip(why);
        continue;
      }
      const checked = await checkFile(abs, opts.maxFileBytes);
      if (typeof checked === 'string') {
        skip(checked);
        continue;
      }
      candidates.push({ abs, rel, size: checked.size, mtimeMs: checked.mtimeMs });
    }
  }
  return { ...withinLimits(candidates, skipped, opts), directories };
}

/**
 * A directory entry as the walk sees it: a symlink is followed only when asked and only while its
 * target stays inside the root (realpath containment); undefined for what is neither file nor
 * directory; a skip reason otherwise.
 */
async function entryOf(root: string, dir: string, ent: Dirent, opts: WalkOptions): Promise<{ abs: string; rel: string; isDir: boolean } | SkipReason | undefined> {
  const abs = path.join(dir, ent.name);
  if (!ent.isSymbolicLink()) {
    if (!ent.isDirectory() && !ent.isFile()) return undefined;
    return { abs, rel: toRelative(root, abs), isDir: ent.isDirectory() };
  }
  if (!opts.followSymlinks) return 'symlink';
  let real: string;
  try {
    real = await realpath(abs);
  } catch {
    return 'unreadable';
  }
  if (!isInside(root, real)) return 'symlink_outside_root';
  return { abs: real, rel: toRelative(root, real), isDir: (await stat(real)).isDirectory() };
}

/** The maxFiles cut (src/lib/pkg/cmd/internal/app first) and the limits hit, reported. */
function withinLimits(candidates: WalkedFile[], skipped: WalkResult['skipped'], opts: WalkOptions): Omit<WalkResult, 'directories'> {
  const limitsHit: LimitHit[] = [];
  if (skipped.too_large) {
    limitsHit.push({ limit: 'max_file_size', value: opts.maxFileBytes, detail: `${skipped.too_large} file(s) larger than ${opts.maxFileBytes} bytes skipped` });
  }
  let files = candidates;
  if (candidates.length > opts.maxFiles) {
    files = prioritize(candidates).slice(0, opts.maxFiles);
    skipped.over_max_files = candidates.length - files.length;
    limitsHit.push({ limit: 'max_files', value: opts.maxFiles, detail: `${candidates.length} files found, ${files.length} kept (src/lib/pkg/cmd/internal/app first)` });
    files.sort((a, b) => (a.rel < b.rel ? -1 : 1));
  }
  return { files, skipped, limitsHit };
}

function prioritize(files: WalkedFile[]): WalkedFile[] {
  const rank = (f: WalkedFile) => (f.rel.split('/').slice(0, -1).some((d) => PRIORITY_DIRS.has(d)) ? 0 : 1);
  return [...files].sort((a, b) => rank(a) - rank(b) || (a.rel < b.rel ? -1 : 1));
}

/** Size limit, binary sniff (NUL in the first 8 KiB) and generated marker, in one open. */
export async function checkFile(abs: string, maxFileBytes: number): Promise<{ size: number; mtimeMs: number } | SkipReason> {
  let st;
  try {
    st = await stat(abs);
  } catch {
    return 'unreadable';
  }
  if (!st.isFile()) return 'unreadable';
  if (st.size > maxFileBytes) return 'too_large';
  let head: Buffer;
  try {
    const fh = await open(abs, 'r');
    try {
      const buf = Buffer.alloc(Math.min(SNIFF_BYTES, st.size));
      const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
      head = buf.subarray(0, bytesRead);
    } finally {
      await fh.close();
    }
  } catch {
    return 'unreadable';
  }
  if (hasNulByte(head)) return 'binary';
  if (looksGenerated(head)) return 'generated';
  return { size: st.size, mtimeMs: st.mtimeMs };
}
