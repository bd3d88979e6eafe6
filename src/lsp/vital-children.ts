/**
 * Child processes a server cannot answer without. typescript-language-server stays up when its
 * tsserver child dies (it only shuts its client down) and from then on answers every request with
 * an empty list: to lspgate that looked like "ready, found nothing" for good.
 * Its window/logMessage on the event is a log line, not a contract, so the process tree is the
 * signal: the children whose command line matches the entry's `vitalChildren` patterns are
 * recorded once the server is ready, and the death of any of them is a crash of the server.
 *
 * Linux-only (/proc); elsewhere the watch is off and the server's own exit stays the only signal.
 */
import { readdirSync, readFileSync } from 'node:fs';

export interface VitalDeath {
  pid: number | undefined;
  pattern: string;
}

/** How often a ready server's vital children are looked at between requests (a few stat reads). */
const WATCH_INTERVAL_MS = 1000;

export class VitalChildren {
  private watched: { pid: number; pattern: string }[] | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** Every recorded child was alive at a check earlier in this turn of the event loop. */
  private aliveThisTurn = false;

  constructor(
    /** The server's process group (every child inherits it). */
    private readonly pgid: number,
    private readonly patterns: string[],
  ) {}

  get enabled(): boolean {
    return this.patterns.length > 0 && procAvailable();
  }

  /**
   * Records the matching children (once). A pattern that matches no process at that point is a
   * death already: the server reached readiness and its child is gone.
   */
  capture(): VitalDeath | undefined {
    if (!this.enabled || this.watched) return undefined;
    const members = groupCommands(this.pgid);
    this.watched = [];
    let missing: VitalDeath | undefined;
    for (const pattern of this.patterns) {
      const re = new RegExp(pattern);
      const hits = members.filter((m) => re.test(m.cmd));
      if (hits.length === 0) missing ??= { pid: undefined, pattern };
      for (const h of hits) this.watched.push({ pid: h.pid, pattern });
    }
    return missing;
  }

  /**
   * Also looks between requests, so that the session shows `crashed` (and restarts) without
   * waiting for a caller; requests look again themselves, before and after asking.
   */
  watch(look: () => boolean): void {
    if (!this.enabled || this.timer) return;
    this.timer = setInterval(() => {
      if (look()) this.stop();
    }, WATCH_INTERVAL_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /**
   * The first recorded child that is gone (exited or a zombie), if any. "All alive" is kept until
   * the event loop's next turn: one operation read a session's state a dozen times in the same
   * turn (broker routing, cache stamps, _meta), each a /proc read per child (an eighth of a warm
   * get_file_outline's CPU). Any check in a later turn — a request before and after asking,
   * the 1 s watcher — reads /proc again, so a death is seen as soon as before.
   */
  firstDead(): VitalDeath | undefined {
    if (this.aliveThisTurn) return undefined;
    for (const w of this.watched ?? []) if (!aliveInGroup(w.pid, this.pgid)) return w;
    this.aliveThisTurn = true;
    setImmediate(() => {
      this.aliveThisTurn = false;
    });
    return undefined;
  }
}

let procChecked: boolean | undefined;
function procAvailable(): boolean {
  if (procChecked === undefined) {
    try {
      readFileSync('/proc/self/stat');
      procChecked = true;
    } catch {
      procChecked = false;
    }
  }
  return procChecked;
}

/** Fields of /proc/<pid>/stat after the command name (which may hold spaces and parentheses). */
function statFields(pid: number | string): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

function groupCommands(pgid: number): { pid: number; cmd: string }[] {
  const out: { pid: number; cmd: string }[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const f = statFields(name);
    if (!f || Number(f[2]) !== pgid || f[0] === 'Z') continue;
    try {
      out.push({ pid: Number(name), cmd: readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').join(' ') });
    } catch {
      // exited while we looked
    }
  }
  return out;
}

/**
 * A process of the group that is stopped (state `T`: SIGSTOP, SIGTSTP, SIGTTIN/SIGTTOU), if any.
 * A stopped child answers nothing while its parent, which answers lspgate, still runs:
 * typescript-language-server answers a `$/` probe itself, so a stopped tsserver looked alive.
 * Read only after a request timed out (a walk of /proc), never on the answer path.
 */
export function stoppedInGroup(pgid: number): { pid: number; cmd: string } | undefined {
  if (!procAvailable()) return undefined;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const f = statFields(name);
    if (!f || Number(f[2]) !== pgid || f[0] !== 'T') continue;
    let cmd = '';
    try {
      cmd = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').join(' ').trim();
    } catch {
      // exited while we looked: its pid says enough
    }
    return { pid: Number(name), cmd };
  }
  return undefined;
}

function aliveInGroup(pid: number, pgid: number): boolean {
  const f = statFields(pid);
  // a zombie has exited (it only waits for its parent to reap it); another group means a reused pid
  return f !== undefined && f[0] !== 'Z' && Number(f[2]) === pgid;
}
