/**
 * The record an apply leaves beside its backups once its files are in place
 * (`<cache>/backups/<workspace id>/<journal id>.applied.json`): each file's path, backup and the
 * hashes of its content before and after. `undo` (undo.ts) reads them, each vetted first
 * (record-vetting.ts).
 */
import path from 'node:path';

import { writePrivateFile } from '../../util/private-files.js';

export interface AppliedRecord {
  v: 1;
  id: string;
  root: string;
  operation: string;
  time: string;
  backup_dir: string;
  /** `before`/`after` are ABSENT for a file the apply created/removed; `mode` is a removed file's, without execute bits. */
  files: { file: string; abs: string; backup: string; before: string; after: string; mode?: number }[];
  /** Root-relative folders the apply made for the files it created, deepest first: its undo removes them when empty. */
  dirs?: string[];
}

export const SUFFIX = '.applied.json';

export function recordsDir(cacheDir: string, workspaceId: string): string {
  return path.join(cacheDir, 'backups', workspaceId);
}

/** Called by an apply once its files are in place. */
export function recordApplied(cacheDir: string, workspaceId: string, rec: Omit<AppliedRecord, 'v'>): void {
  writePrivateFile(path.join(recordsDir(cacheDir, workspaceId), `${rec.id}${SUFFIX}`), JSON.stringify({ v: 1, ...rec }));
}
