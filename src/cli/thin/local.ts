/**
 * What the `lspgate` entry answers by itself, with node builtins and the generated operation list
 * only: `--version`, `--help`, `<operation> --help`, `mcp|sidecar|repl --help`, `daemon --help`,
 * `daemon status [--json]` and `daemon stop`. None needs a workspace, a language server or the
 * operations' code, so none pays for loading the full CLI (1.3–2.7 s and ~100 MB measured before).
 * Anything else, or any of these with other flags, is the thin client's or the full CLI's.
 */
import { packageVersion } from '../../link/paths.js';
import { DAEMON_HELP, mainHelp } from './help-text.js';
import { listedOperations } from './tools.js';

export interface LocalAnswer {
  stdout: string;
  stderr?: string;
  exit_code: number;
}

const HELP = new Set(['--help', '-h']);

function helpText(): string {
  return mainHelp(listedOperations(), packageVersion()) + '\n';
}

async function daemonAnswer(rest: string[]): Promise<LocalAnswer | undefined> {
  if (rest.length === 1 && HELP.has(rest[0]!)) return { stdout: DAEMON_HELP + '\n', exit_code: 0 };
  const words = rest.filter((a) => a !== '--json');
  if (words.length !== 1 || rest.length - words.length > 1) return undefined;
  const sub = words[0];
  if (sub !== 'status' && sub !== 'stop') return undefined;
  const { daemonQuery } = await import('./daemon-query.js');
  return daemonQuery(sub, rest.includes('--json'));
}

/** The answer to `argv` when the entry gives it itself, else undefined. */
export async function localAnswer(argv: string[]): Promise<LocalAnswer | undefined> {
  const [cmd, ...rest] = argv;
  if (cmd === undefined || cmd === 'help' || HELP.has(cmd)) return { stdout: helpText(), exit_code: 0 };
  if (cmd === '--version' || cmd === '-v' || cmd === 'version') return { stdout: packageVersion() + '\n', exit_code: 0 };
  if (cmd === 'daemon') return daemonAnswer(rest);
  if (rest.length !== 1 || !HELP.has(rest[0]!)) return undefined;
  if (cmd === 'mcp' || cmd === 'sidecar' || cmd === 'repl') return { stdout: helpText(), exit_code: 0 };
  const op = listedOperations().find((o) => o.name === cmd);
  return op ? { stdout: op.help + '\n', exit_code: 0 } : undefined;
}
