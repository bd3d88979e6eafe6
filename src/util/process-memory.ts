/**
 * Resident memory of whole process groups, read from /proc: every language server runs in a
 * process group of its own (its reaper or itself leads it), and the group holds the server's
 * whole tree — typescript-language-server's two tsservers, gopls's go list children. One pass
 * over /proc answers for every group at once. Without /proc (not Linux) nothing is known: an
 * empty map, and a memory budget cannot act.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** After the `(comm)` field of /proc/<pid>/stat: [0] state, [1] ppid, [2] pgrp. */
export function statFields(pid: string): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** VmRSS of one process in bytes (0 for a zombie or a process that has just exited). */
function rssBytes(pid: string): number {
  try {
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** The live processes of a process group (empty without /proc). */
export function groupPids(pgid: number): number[] {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  const out: number[] = [];
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const f = statFields(name);
    if (f && f[0] !== 'Z' && Number(f[2]) === pgid) out.push(Number(name));
  }
  return out;
}

/** Total RSS in bytes of each process group asked for (groups with no live process are left out). */
export function groupRss(pgids: Iterable<number>): Map<number, number> {
  const wanted = new Set(pgids);
  const out = new Map<number, number>();
  if (!wanted.size) return out;
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return out;
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const f = statFields(name);
    if (!f || f[0] === 'Z') continue;
    const pgid = Number(f[2]);
    if (!wanted.has(pgid)) continue;
    out.set(pgid, (out.get(pgid) ?? 0) + rssBytes(name));
  }
  return out;
}
