/**
 * Every server runs under a tiny Node watchdog so that it dies with lspgate, even when lspgate is
 * killed with SIGKILL (no exit handler runs then). Servers are supposed to watch `processId` from
 * `initialize` and exit on stdin EOF, but tsserver children outlive a typescript-language-server
 * that dies without a clean shutdown. The watchdog:
 *  - is spawned detached, so it leads its own process group; the server and all its children
 *    inherit that group, so `process.kill(-pgid)` reaches the whole tree;
 *  - polls its parent: when lspgate is gone (re-parented), it SIGKILLs its whole group;
 *  - when the server exits, it reports the exit on stderr and kills the group (left-over children);
 *  - it reports the server's own pid on stderr at spawn (the pid callers see is the server's, not
 *    the watchdog's: a user who kills "the server" must hit the server).
 * The script is passed with `node -e` so it runs the same from src/ (vitest) and dist/.
 */
export const REAPER_MARKER = '[lspgate-reaper]';

/**
 * Set in the environment of a command whose files must be private (git cloning into lspgate's cache):
 * the watchdog applies this umask (octal) before it spawns the command, and removes the variable.
 * A umask set by lspgate itself would apply to every file the process writes, workspace edits included.
 */
export const UMASK_VAR = 'LSPGATE_REAPER_UMASK';

const REAPER_SOURCE = `
const { spawn } = require('node:child_process');
const [file, ...args] = process.argv.slice(1);
const umask = process.env.${UMASK_VAR};
if (umask) { process.umask(parseInt(umask, 8)); delete process.env.${UMASK_VAR}; }
const parent = process.ppid;
const killGroup = () => { try { process.kill(-process.pid, 'SIGKILL'); } catch { process.exit(1); } };
const child = spawn(file, args, { stdio: 'inherit' });
if (child.pid) process.stderr.write('${REAPER_MARKER} pid=' + child.pid + '\\n');
child.on('error', (e) => { process.stderr.write('${REAPER_MARKER} spawn failed: ' + e.message + '\\n'); process.exit(127); });
child.on('exit', (code, signal) => {
  process.stderr.write('\\n${REAPER_MARKER} exit code=' + code + ' signal=' + signal + '\\n', () => killGroup());
  setTimeout(killGroup, 200);
});
for (const s of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(s, () => child.kill(s));
setInterval(() => {
  let gone = process.ppid !== parent;
  if (!gone) { try { process.kill(parent, 0); } catch { gone = true; } }
  if (gone) killGroup();
}, 300);
`;

/** The argv that runs `file args` under the watchdog. */
export function wrapWithReaper(file: string, args: string[]): { file: string; args: string[] } {
  return { file: process.execPath, args: ['-e', REAPER_SOURCE, file, ...args] };
}

/** Parses the watchdog's exit report from stderr lines (the server's real exit code/signal). */
export function parseReaperExit(lines: string[]): { code: number | null; signal: string | null } | undefined {
  for (let i = lines.length - 1; i >= 0; i--) {
    const m = /\[lspgate-reaper\] exit code=(\S+) signal=(\S+)/.exec(lines[i]!);
    if (m) return { code: m[1] === 'null' ? null : Number(m[1]), signal: m[2] === 'null' ? null : m[2]! };
  }
  return undefined;
}

/** The server's own pid from the watchdog's spawn report, when `line` is that report. */
export function parseReaperPid(line: string): number | undefined {
  const m = /^\[lspgate-reaper\] pid=(\d+)$/.exec(line);
  return m ? Number(m[1]) : undefined;
}
