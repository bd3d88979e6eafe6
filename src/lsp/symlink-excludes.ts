/**
 * A server's exclude list grows by every directory symlink of its root (entry
 * `symlinkExcludeSetting`, see util/symlinks.ts): intelephense walks `loop/up -> ..` again and
 * again otherwise. Globs are absolute (`/root/loop/up/**`): intelephense 1.18 honoured that form
 * (163 files queued instead of 1,123 on a 20-class project with one loop).
 */
import type { ServerEntry } from '../config/schema.js';
import type { Logger } from '../util/logger.js';
import { toRelative } from '../util/paths.js';
import { directorySymlinks } from '../util/symlinks.js';

/** Glob metacharacters: a path holding one cannot be written as a literal glob. */
const GLOB_SPECIAL = /[*?[\]{}()!]/;

export function withSymlinkExcludes(entry: ServerEntry, settings: Record<string, unknown>, root: string, logger?: Logger): Record<string, unknown> {
  if (!entry.symlinkExcludeSetting) return settings;
  const links = directorySymlinks(root);
  if (links.length === 0) return settings;
  const globs: string[] = [];
  for (const link of links) {
    const rel = toRelative(root, link);
    if (GLOB_SPECIAL.test(rel)) logger?.warn(`${entry.id}: directory symlink ${link} has glob characters in its path and cannot be excluded`);
    else globs.push(rel, `${rel}/**`);
  }
  const copy = structuredClone(settings);
  const keys = entry.symlinkExcludeSetting.split('.');
  let cur: Record<string, unknown> = copy;
  for (const k of keys.slice(0, -1)) {
    const next = cur[k];
    cur = cur[k] = next && typeof next === 'object' && !Array.isArray(next) ? (next as Record<string, unknown>) : {};
  }
  const last = keys[keys.length - 1]!;
  const existing = Array.isArray(cur[last]) ? (cur[last] as unknown[]) : [];
  cur[last] = [...existing, ...globs];
  logger?.info(`${entry.id}: excluding ${globs.length} directory symlink(s) of ${root} from indexing`);
  return copy;
}
