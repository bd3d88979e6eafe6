/**
 * `lspgate/cli`: one one-shot CLI call of a thin client, run in the daemon on a view of the
 * client's `--root` (resolved against the client's directory) and answered as what the CLI prints
 * (one-shot.ts: the same bytes as in the client's own process). A call whose settings are read
 * per process (--servers, --daemon off, the root's .lspgate config) is refused: the thin client
 * then runs the full CLI, which handles it as before.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

import { ResponseError } from 'vscode-jsonrpc/node';

import { LspgateError, toLspgateError } from '../errors/errors.js';
import { CliParams } from '../frontends/daemon-client/protocol.js';
import { findOperation, type OneShotOutput, runOneShot } from '../frontends/one-shot.js';
import { parseOperationArgs } from '../frontends/operation-args.js';
import type { Gateway } from '../gateway/gateway.js';
import type { ProgressUpdate } from '../operations/types.js';
import type { Logger } from '../util/logger.js';
import { clientFrontend, type ClientViewOptions } from './client-view.js';

/** Why the client must run this call itself, or undefined. */
function perProcess(argv: readonly string[], cwd: string): string | undefined {
  try {
    const [name = '', ...rest] = argv;
    const { flags } = parseOperationArgs(findOperation(name), rest);
    if (flags.servers.length) return '--servers files are read per process';
    if (flags.daemon === 'off') return '--daemon off';
    const root = path.resolve(cwd, flags.root ?? '.');
    if (['servers.json', 'config.json'].some((f) => existsSync(path.join(root, '.lspgate', f)))) return 'the root has its own .lspgate config';
  } catch {
    // a usage error: answered by runOneShot as the CLI prints it
  }
  return undefined;
}

/**
 * The client's view of its --root. The CLI in its own process names a root that does not exist
 * as it was given (relative or not): so does this, though the daemon resolves it against `cwd`.
 */
function forRoot(core: Gateway, cwd: string, given: string | undefined): Gateway {
  const resolved = path.resolve(cwd, given ?? '.');
  try {
    return core.forClient(resolved);
  } catch (e) {
    const err = toLspgateError(e);
    if (given === undefined || given === resolved || err.details?.path !== resolved) throw err;
    throw new LspgateError(err.code, err.message.replace(resolved, given), { ...err.details, path: given });
  }
}

export async function runCli(
  core: Gateway,
  params: unknown,
  opts: Omit<ClientViewOptions, 'closeView'> & { logger: Logger; progress?: (p: ProgressUpdate) => void },
): Promise<OneShotOutput> {
  const parsed = CliParams.safeParse(params);
  if (!parsed.success) throw new ResponseError(-32602, `bad lspgate/cli params: ${parsed.error.message}`, { code: 'INVALID_INPUT', details: {} });
  const { argv, cwd, progress } = parsed.data;
  const why = perProcess(argv, cwd);
  if (why) throw new ResponseError(-32001, `the daemon cannot run this call: ${why}`, { code: 'DAEMON_FAILED', details: { reason: 'per_process_config' } });
  opts.logger.info(`one-shot ${argv[0]}`);
  return runOneShot(
    argv,
    async (flags) => {
      const view = forRoot(core, cwd, flags.root);
      return clientFrontend(core, () => view, { lifetime: opts.lifetime, running: opts.running, closeView: true });
    },
    opts.lifetime,
    progress ? opts.progress : undefined,
  );
}
