/**
 * Resident memory of a process and its descendants, read from /proc (Linux). Hand-written: the
 * npm packages for this (pidusage, pidtree) shell out to `ps` per call or stop at the pid list; one
 * pass over /proc/<pid>/stat for the parent links and /proc/<pid>/status for VmRSS is all the
 * daemon's status needs. Undefined where /proc is absent (macOS) or the process is gone.
 */
import { readdirSync, readFileSync } from 'node:fs';

function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name (field 2) may hold spaces and parentheses: parse after its last ')'
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return Number.isInteger(ppid) ? ppid : undefined;
  } catch {
    return undefined;
  }
}

function rssBytes(pid: number): number | undefined {
  try {
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return undefined;
  }
}

/** `pid` and every descendant alive now. */
export function processTree(pid: number): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const children = new Map<number, number[]>();
  for (const e of entries) {
    if (!/^\d+$/.test(e)) continue;
    const p = Number(e);
    const ppid = parentOf(p);
    if (ppid !== undefined) children.set(ppid, [...(children.get(ppid) ?? []), p]);
  }
  const out: number[] = [];
  const queue = [pid];
  while (queue.length) {
    const p = queue.shift()!;
    out.push(p);
    queue.push(...(children.get(p) ?? []));
  }
  return out;
}

/** Total RSS in bytes of `pid` and its descendants; undefined if it cannot be read. */
export function treeRssBytes(pid: number): number | undefined {
  const own = rssBytes(pid);
  if (own === undefined) return undefined;
  return processTree(pid)
    .slice(1)
    .reduce((sum, p) => sum + (rssBytes(p) ?? 0), own);
}
