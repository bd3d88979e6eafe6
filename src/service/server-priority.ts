/**
 * The CPU priority of a server's process tree: a server started ahead of any question runs at nice
 * 10 while nobody waits on it; the first call that needs it raises it back to 0 where the system
 * allows (an unprivileged process may not lower a nice value on Linux: then it stays, said once).
 */
import os from 'node:os';

import type { LspSession } from '../lsp/types.js';
import { groupPids, statFields } from '../util/process-memory.js';
import type { ServiceEnv } from './env.js';

/** The nice value of a server started ahead of any question. */
const BACKGROUND_NICE = 10;
/** Sessions started ahead of any question and still at the background priority. */
const lowered = new WeakSet<LspSession>();
let cannotRaise = false;

/** A session started ahead of any question: to the background priority. */
export function lowerPriority(env: ServiceEnv, session: LspSession): void {
  if (setNice(session, BACKGROUND_NICE, env)) lowered.add(session);
}

/** A caller waits on this session: back to normal priority if it was started in the background. */
export function raisePriority(env: ServiceEnv, session: LspSession): void {
  if (!lowered.has(session)) return;
  lowered.delete(session);
  if (!setNice(session, 0, env) && !cannotRaise) {
    cannotRaise = true;
    env.logger.info(
      `${session.serverId} stays at nice ${BACKGROUND_NICE}: this process may not raise a priority (an unprivileged user on Linux); set LSPGATE_SERVER_START=on-demand to start servers only when asked`,
    );
  }
}

/** Sets the nice value of the session's whole process group; false when it could not (no pid, not permitted). */
function setNice(session: LspSession, nice: number, env: ServiceEnv): boolean {
  const pid = session.pid;
  if (pid === undefined) return false;
  // the server's whole tree is its process group (its reaper or itself leads it): tsserver, go list children
  const pids = groupPids(Number(statFields(String(pid))?.[2] ?? pid));
  let ok = pids.length > 0;
  for (const p of pids.length ? pids : [pid]) {
    try {
      os.setPriority(p, nice);
    } catch (e) {
      ok = false;
      env.logger.debug(`setPriority(${p}, ${nice}) failed`, e);
    }
  }
  return ok;
}
