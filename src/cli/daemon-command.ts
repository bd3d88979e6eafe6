/**
 * `lspgate daemon` (run it in the foreground), `lspgate daemon status [--json]` (clients,
 * sessions with their memory and state, workspaces) and `lspgate daemon stop`.
 */
import { runDaemon } from '../daemon/server.js';
import { LspgateError } from '../errors/errors.js';
import { guardedParse } from '../frontends/operation-args.js';
import { applyCorpusFlags } from '../service/search/corpus-sync.js';
import { applyServerStartFlag } from '../service/workspace/server-warmup.js';
import { daemonQuery } from './thin/daemon-query.js';
import { DAEMON_HELP } from './thin/help-text.js';

const OPTIONS = {
  json: { type: 'boolean' },
  'idle-ms': { type: 'string' },
  'server-idle-ms': { type: 'string' },
  'server-start': { type: 'string' },
  'flow-corpus': { type: 'string' },
  policy: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export async function runDaemonCommand(argv: string[]): Promise<void> {
  const { values, positionals } = guardedParse({ args: argv, options: OPTIONS, strict: true, allowPositionals: true });
  const [sub, ...extra] = positionals;
  if (values.help || extra.length) {
    process.stdout.write(DAEMON_HELP + '\n');
    return;
  }
  if (sub === undefined) {
    applyServerStartFlag(values['server-start']);
    applyCorpusFlags({ flowCorpus: values['flow-corpus'], policy: values.policy });
    const idle = intFlag(values['idle-ms'], '--idle-ms', 1);
    const sessionIdle = intFlag(values['server-idle-ms'], '--server-idle-ms', 0);
    return runDaemon({ ...(idle !== undefined ? { idleMs: idle } : {}), ...(sessionIdle !== undefined ? { sessionIdleMs: sessionIdle } : {}) });
  }
  if (sub !== 'status' && sub !== 'stop') throw new LspgateError('INVALID_INPUT', `unknown daemon command ${sub.slice(0, 40)}: status or stop`);
  const out = await daemonQuery(sub, values.json ?? false);
  process.stderr.write(out.stderr);
  process.stdout.write(out.stdout);
  process.exitCode = out.exit_code;
}

function intFlag(raw: string | undefined, flag: string, min: number): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new LspgateError('INVALID_INPUT', `${flag} must be a ${min > 0 ? 'positive' : 'non-negative'} integer`);
  return n;
}
