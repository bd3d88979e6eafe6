/**
 * Which server serves a file, and at which root. With the entry's `rootStrategy: "workspace"`
 * (the default) the root is the workspace root: one session per (server, workspace), since
 * tsserver, gopls, pyright and intelephense each serve many projects from one process. With
 * `nearest-marker` it is the nearest directory at or above the file (and at or below the
 * workspace root) holding one of the entry's rootMarkers; within a directory earlier markers win.
 * The entry's workspaceMarkers (a file naming a set of projects) win across directories: the
 * nearest one anywhere up the chain beats a nearer ordinary marker, as opencode does — that set is
 * what the server must load to see references across projects.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

import type { ServerEntry } from '../config/schema.js';
import { isInside } from '../util/paths.js';

export function entryFor(servers: ServerEntry[], absPath: string): ServerEntry | undefined {
  const ext = path.extname(absPath).toLowerCase();
  let best: ServerEntry | undefined;
  for (const e of servers) {
    if (!e.enabled || !e.extensions.some((x) => x.toLowerCase() === ext)) continue;
    if (!best || e.priority > best.priority) best = e;
  }
  return best;
}

/** Directories from the file's directory up to (and including) the workspace root. */
function chain(absPath: string, workspaceRoot: string): string[] {
  const dirs: string[] = [];
  let dir = path.dirname(absPath);
  if (!isInside(workspaceRoot, dir)) return [workspaceRoot];
  for (;;) {
    dirs.push(dir);
    if (dir === workspaceRoot) break;
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return dirs;
}

export function findRoot(entry: ServerEntry, absPath: string, workspaceRoot: string): string {
  if (entry.rootStrategy !== 'nearest-marker') return workspaceRoot;
  const dirs = chain(absPath, workspaceRoot);
  for (const marker of entry.workspaceMarkers) {
    for (const dir of dirs) if (existsSync(path.join(dir, marker))) return dir;
  }
  for (const dir of dirs) {
    for (const marker of entry.rootMarkers) {
      if (existsSync(path.join(dir, marker))) return dir;
    }
  }
  return workspaceRoot;
}
