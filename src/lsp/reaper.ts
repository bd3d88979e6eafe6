/**
 * Every server runs with a watchdog so that it dies with lspgate, even when lspgate is killed with
 * SIGKILL (no exit handler runs then). Servers are supposed to watch `processId` from `initialize`
 * and exit on stdin EOF, but tsserver children outlive a typescript-language-server that dies
 * without a clean shutdown.
 *
 * The watchdog is not a Node process (one cost ~42 MB RSS per server) but a forked `/bin/sh` (about
 * 1 MB): the program is started through `sh -c WATCHDOG`, spawned detached so that it leads a
 * process group of its own, which the server and all its children inherit, so
 * `process.kill(-pgid)` reaches the whole tree. The shell forks one subshell that blocks reading
 * fd 3 and then `exec`s the server in its own place (the pid callers see is the server's, its exit
 * code is the server's). fd 3 is a pipe whose only writing end is lspgate's: the kernel closes it
 * when lspgate dies, however it dies, and the subshell's read returns at once and SIGKILLs the
 * whole group. The server itself gets no fd 3 (`3<&-`), and the subshell holds none of its stdio.
 * When the server exits while lspgate lives, lspgate kills the group (left-over children and the
 * subshell) itself: spawn.ts. The server's argv reaches the shell as arguments ("$@"), never as
 * text it parses.
 */
export const REAPER_MARKER = '[lspgate-reaper]';

/**
 * Set in the environment of a command whose files must be private (git cloning into lspgate's cache):
 * the watchdog applies this umask (octal) before it starts the command, and removes the variable.
 * A umask set by lspgate itself would apply to every file the process writes, workspace edits included.
 */
export const UMASK_VAR = 'LSPGATE_REAPER_UMASK';

const WATCHDOG = `if [ -n "$${UMASK_VAR}" ]; then umask "$${UMASK_VAR}"; unset ${UMASK_VAR}; fi\n( read -r _ <&3; kill -KILL 0 ) </dev/null >/dev/null 2>&1 &\nexec "$@" 3<&-`;

/**
 * The argv that runs `file args` under the watchdog. The caller must give the process a pipe as fd 3
 * (stdio[3]: 'pipe') and keep its end open for the process's life: its closing is what the watchdog
 * takes for lspgate's death.
 */
export function wrapWithReaper(file: string, args: string[]): { file: string; args: string[] } {
  // $0 is the marker: the watchdog subshell's command line names it (and the server after it)
  return { file: '/bin/sh', args: ['-c', WATCHDOG, REAPER_MARKER, file, ...args] };
}
