/**
 * The on-disk snapshot of one workspace's catalog: `<cacheDir>/workspaces/<id>/catalog.json`.
 * Written atomically (tmp + rename) so a crash never leaves half a file; a snapshot with another
 * index_version or root is ignored (full rebuild).
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { CatalogSymbol } from './types.js';

/** 2: TypeScript import bindings left out, tsgo's const Variables are constants. */
export const INDEX_VERSION = 2;

export interface FileEntry {
  /** sha256 of the file's bytes. */
  hash: string;
  size: number;
  mtimeMs: number;
  language: string;
  server: string;
  symbols: CatalogSymbol[];
}

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

export function saveSnapshot(file: string, snap: Snapshot): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(tmp, JSON.stringify(snap));
  renameSync(tmp, file);
}

export function deleteSnapshot(file: string): void {
  rmSync(path.dirname(file), { recursive: true, force: true });
}
