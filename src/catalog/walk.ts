/**
 * The workspace walk: every file the gate (file-gate.ts: containment, the per-path rules of
 * file-filter.ts, size, binary, generated and private-key content) admits, and the file-count limit
 * with priority to the usual source folders. Every skip is counted.
 */
import type { Dirent } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';

import type { LimitHit } from '../schema/meta.js';
import type { FilterOptions, SkipReason } from './file-filter.js';
import { FileGate } from './file-gate.js';

export interface WalkOptions extends FilterOptions {
  maxFileBytes: number;
  maxFiles: number;
  followSymlinks?: boolean;
  signal?: AbortSignal;
  /** Only the directories the gate enters (what a watcher needs), no file read. */
  directoriesOnly?: boolean;
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
  /** Entries whose names are not UTF-8 (left out: no path in an answer could name them), bytes shown as \xNN. */
  undecodable: string[];
  limitsHit: LimitHit[];
  /** Absolute directories entered (the watcher watches exactly these). */
  directories: string[];
}

const PRIORITY_DIRS = new Set(['src', 'lib', 'pkg', 'cmd', 'internal', 'app']);

export async function walkWorkspace(root: string, opts: WalkOptions, gate = new FileGate(root, opts)): Promise<WalkResult> {
  const skipped: WalkResult['skipped'] = {};
  const skip = (why: SkipReason) => void (skipped[why] = (skipped[why] ?? 0) + 1);
  const candidates: WalkedFile[] = [];
  const directories: string[] = [];
  const visited = new Set<string>();
  const queue = [root];
  const seenFiles = new Set<string>();
  const undecodable: string[] = [];
  while (queue.length) {
    if (opts.signal?.aborted) break;
    const dir = queue.shift()!;
    if (visited.has(dir)) continue;
    visited.add(dir);
    directories.push(dir);
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true, encoding: 'buffer' });
    } catch {
      skip('unreadable');
      continue;
    }
    const named: { name: string; ent: Dirent<Buffer> }[] = [];
    for (const ent of entries) {
      const name = utf8Name(ent.name);
      if (name !== undefined) named.push({ name, ent });
      else if (!opts.directoriesOnly) {
        // Node would decode it with U+FFFD, a name no file has: the file could not be read back by it
        skip('name_not_utf8');
        if (undecodable.length < MAX_UNDECODABLE_LISTED) undecodable.push(shownName(path.relative(root, dir), ent.name));
      }
    }
    named.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const { name, ent } of named) {
      if (opts.directoriesOnly && !ent.isDirectory() && !ent.isSymbolicLink()) continue;
      const found = await judgeEntry(gate, dir, name, ent, !!opts.followSymlinks);
      if (found === undefined) continue;
      if (typeof found === 'string') skip(found);
      else if ('dir' in found) queue.push(found.dir);
      else if (!opts.directoriesOnly && !seenFiles.has(found.file.rel)) {
        seenFiles.add(found.file.rel);
        candidates.push(found.file);
      }
    }
  }
  return { ...withinLimits(candidates, skipped, undecodable, opts), directories, undecodable };
}

/** How many undecodable names a walk lists (all are counted). */
const MAX_UNDECODABLE_LISTED = 20;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

function utf8Name(raw: Buffer): string | undefined {
  try {
    return strictUtf8.decode(raw);
  } catch {
    return undefined;
  }
}

/** A name that is not UTF-8 as readable text: its valid ASCII kept, every other byte as \xNN. */
function shownName(dirRel: string, raw: Buffer): string {
  let name = '';
  for (const b of raw) name += b >= 0x20 && b < 0x7f && b !== 0x5c ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, '0')}`;
  return dirRel ? `${dirRel.split(path.sep).join('/')}/${name}` : name;
}

/**
 * One directory entry through the gate: a directory to enter, an admitted file, a skip reason, or
 * undefined for what is neither file nor directory. An entry that is not a symlink, read from a
 * directory the walk entered, is its own real path below checked directories; a symlink is resolved
 * by the gate (followed only when asked, never out of the root).
 */
async function judgeEntry(
  gate: FileGate,
  dir: string,
  name: string,
  ent: Dirent<Buffer>,
  follow: boolean,
): Promise<{ dir: string } | { file: WalkedFile } | SkipReason | undefined> {
  const abs = path.join(dir, name);
  let isDir = ent.isDirectory();
  const link = ent.isSymbolicLink();
  if (link) {
    // not followed: the target is not even looked at
    if (!follow) return 'symlink';
    const target = await realpath(abs).then(
      (r) => stat(r),
      () => undefined,
    );
    if (!target) return 'unreadable';
    isDir = target.isDirectory();
  } else if (!isDir && !ent.isFile()) return undefined;
  const known = link ? {} : { real: true, dirsChecked: true };
  if (isDir) {
    const entered = await gate.enterDirectory(abs, known);
    return typeof entered === 'string' ? entered : { dir: entered.abs };
  }
  const a = await gate.admit(abs, known);
  if (!a.admitted) return a.reason;
  return { file: { abs: a.abs, rel: a.rel, size: a.size, mtimeMs: a.mtimeMs } };
}

/** The maxFiles cut (src/lib/pkg/cmd/internal/app first) and the limits hit, reported. */
function withinLimits(
  candidates: WalkedFile[],
  skipped: WalkResult['skipped'],
  undecodable: string[],
  opts: WalkOptions,
): Omit<WalkResult, 'directories' | 'undecodable'> {
  const limitsHit: LimitHit[] = [];
  if (skipped.name_not_utf8) {
    const more = skipped.name_not_utf8 > undecodable.length ? ` and ${skipped.name_not_utf8 - undecodable.length} more` : '';
    limitsHit.push({
      limit: 'file_name_encoding',
      value: 0,
      detail: `${skipped.name_not_utf8} file(s) whose names are not UTF-8 left out: ${undecodable.join(', ')}${more}`,
    });
  }
  if (skipped.too_large) {
    limitsHit.push({ limit: 'max_file_size', value: opts.maxFileBytes, detail: `${skipped.too_large} file(s) larger than ${opts.maxFileBytes} bytes skipped` });
  }
  let files = candidates;
  if (candidates.length > opts.maxFiles) {
    files = prioritize(candidates).slice(0, opts.maxFiles);
    skipped.over_max_files = candidates.length - files.length;
    limitsHit.push({
      limit: 'max_files',
      value: opts.maxFiles,
      detail: `${candidates.length} files found, ${files.length} kept (src/lib/pkg/cmd/internal/app first)`,
    });
    files.sort((a, b) => (a.rel < b.rel ? -1 : 1));
  }
  return { files, skipped, limitsHit };
}

function prioritize(files: WalkedFile[]): WalkedFile[] {
  const rank = (f: WalkedFile) =>
    f.rel
      .split('/')
      .slice(0, -1)
      .some((d) => PRIORITY_DIRS.has(d))
      ? 0
      : 1;
  return [...files].sort((a, b) => rank(a) - rank(b) || (a.rel < b.rel ? -1 : 1));
}
