/**
 * The on-disk snapshot of one workspace's catalog: `<cacheDir>/workspaces/<id>/catalog.json`.
 * Written atomically (tmp + rename) so a crash never leaves half a file; a snapshot with another
 * index_version or root is ignored (full rebuild).
 */
import { closeSync, readdirSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';

import type { FileEntry } from '../core/catalog.js';
import { createPrivateFile, mkdirPrivate } from '../util/private-files.js';

/** 2: TypeScript import bindings left out, tsgo's const Variables are constants. 3: files with a grammar cataloged from their parse trees only. */
export const INDEX_VERSION = 3;

export interface Snapshot {
  index_version: number;
  root: string;
  indexed_at: string;
  git_head: string;
  files: Record<string, FileEntry>;
}

export function snapshotPath(cacheDir: string, workspaceId: string): string {
  return path.join(cacheDir, 'workspaces', workspaceId, 'catalog.json');
}

export function loadSnapshot(file: string, root: string): Snapshot | undefined {
  let raw: string;
  try {
    raw = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const snap = JSON.parse(raw) as Snapshot;
    if (snap.index_version !== INDEX_VERSION || snap.root !== root || typeof snap.files !== 'object' || snap.files === null) return undefined;
    return snap;
  } catch {
    return undefined; // a corrupt snapshot costs a rebuild, never a failure
  }
}

/**
 * Written file by file, not as one JSON string: the whole snapshot of a 500-file workspace is
 * ~17 MB of JSON, and one string of it (plus the Buffer write makes of it) was a third of
 * lspgate's peak RSS (bench --gen-files 500). The result is the same JSON.
 */
export function saveSnapshot(file: string, snap: Snapshot): void {
  // the cache is private (signatures and docstrings of the workspace): 0700 directories, a 0600 file from creation
  mkdirPrivate(path.dirname(file));
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  const fd = createPrivateFile(tmp);
  try {
    const { files, ...head } = snap;
    const prefix = JSON.stringify(head);
    let chunk = `${prefix.slice(0, -1)}${prefix.length > 2 ? ',' : ''}"files":{`;
    let first = true;
    for (const [rel, entry] of Object.entries(files)) {
      chunk += `${first ? '' : ','}${JSON.stringify(rel)}:${JSON.stringify(entry)}`;
      first = false;
      if (chunk.length >= 1 << 16) {
        writeSync(fd, chunk);
        chunk = '';
      }
    }
    writeSync(fd, `${chunk}}}`);
    closeSync(fd);
    renameSync(tmp, file);
  } catch (e) {
    // a full disk fails the first write: no temp file (empty or half) is left per attempt
    try {
      closeSync(fd);
    } catch {
      // closed already
    }
    rmSync(tmp, { force: true });
    throw e;
  }
  removeStaleTemps(file);
}

/**
 * The temp files of saves whose process died mid-write (`catalog.json.<pid>.<ms>.tmp`), removed
 * beside a snapshot just saved: a process's own are never left, and another's that still runs is
 * writing its own.
 */
function removeStaleTemps(file: string): void {
  const dir = path.dirname(file);
  const prefix = `${path.basename(file)}.`;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const n of names) {
    const m = n.startsWith(prefix) ? /^(\d+)\.\d+\.tmp$/.exec(n.slice(prefix.length)) : null;
    if (!m || (Number(m[1]) !== process.pid && processRuns(Number(m[1])))) continue;
    rmSync(path.join(dir, n), { force: true });
  }
}

function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function deleteSnapshot(file: string): void {
  rmSync(path.dirname(file), { recursive: true, force: true });
}
