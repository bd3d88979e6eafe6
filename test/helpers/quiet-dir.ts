/**
 * Removing a test's temp dir once nothing runs in it any more. `lspgate daemon stop` answers
 * before the daemon's language servers have exited, and a server still writing under the cache
 * (tsserver's logs, gopls's file cache) makes a recursive remove fail with ENOTEMPTY.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';

import { commandLine, isAlive, waitGone } from './spawn.js';

function environ(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'utf8');
  } catch {
    return '';
  }
}

/** Live processes (this one left out) whose command line or environment names `dir`. */
export function processesUnder(dir: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    if (pid === process.pid || !isAlive(pid)) continue;
    if (commandLine(pid).includes(dir) || environ(pid).includes(dir)) found.push(pid);
  }
  return found;
}

/** Waits for every process that names `dir` to exit (killing and naming any left after the bound), then removes `dir`. */
export async function removeWhenQuiet(dir: string): Promise<void> {
  const left = await waitGone(processesUnder(dir));
  for (const pid of left) {
    process.stderr.write(`removeWhenQuiet: killing ${pid} (${commandLine(pid).slice(0, 120)}), still alive after its daemon stopped\n`);
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
  await waitGone(left);
  rmSync(dir, { recursive: true, force: true });
}
