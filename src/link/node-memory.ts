/**
 * How lspgate's own Node process is started: the flags and the malloc settings the `lspgate` bin's
 * shebang gives it (src/cli/main.ts; a test holds the two in step) and the daemon's launcher repeats.
 *
 * The young generation is capped at 2 MB (V8 takes it only on the command line; see main.ts). glibc
 * reads its malloc tunables only when a process starts, from GLIBC_TUNABLES: two arenas instead of
 * one per thread that ever allocated (the syntax pass's workers, libuv's pool, V8's: each arena kept
 * its freed pages after its thread ended), and a trim threshold fixed at 128 KiB (glibc's default,
 * which it otherwise raises after each large free, as it raises the size from which a block gets a
 * mapping of its own: set, both stay at 128 KiB, so large blocks go back to the system when freed).
 * Measured on the generated 3,501-file repository (docs/performance.md): the cold process settled at
 * 140 MB against 167 MB without them. The shebang stays under 128 bytes: older Linux kernels cut it there.
 *
 * The tunables are lspgate's own: the language servers and every other program it starts get the
 * environment without them (forgetOwnTunables, called first thing by the bin).
 */

export const NODE_FLAGS: readonly string[] = ['--max-semi-space-size=2'];

export const MALLOC_TUNABLES = 'glibc.malloc.arena_max=2:glibc.malloc.trim_threshold=131072';

/** `env` with lspgate's own malloc tunables: for a Node process that runs lspgate (the daemon). */
export function withOwnTunables(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...env, GLIBC_TUNABLES: MALLOC_TUNABLES };
}

/**
 * Takes lspgate's own tunables out of this process's environment once they have acted (glibc read
 * them at start): what it spawns from here on inherits the environment it was given. A
 * GLIBC_TUNABLES of the user's own (not exactly lspgate's) stays.
 */
export function forgetOwnTunables(env: NodeJS.ProcessEnv = process.env): void {
  if (env.GLIBC_TUNABLES === MALLOC_TUNABLES) delete env.GLIBC_TUNABLES;
}
