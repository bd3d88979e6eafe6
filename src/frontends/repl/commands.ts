/**
 * The REPL's commands: one per operation (its `repl.command` and its own name), plus `.servers`,
 * `.trace`, `.raw`, `.json` and `.help`. Each returns the text to print; failures are printed as
 * `CODE: message` with details, never thrown at the REPL.
 */
import { LspgateError } from '../../errors/errors.js';
import { progressLine } from '../../link/progress-line.js';
import { DEFAULT_MAX_MS } from '../../operations/runner.js';
import type { Operation } from '../../operations/types.js';
import { jsonSafeText } from '../../util/control-chars.js';
import type { FrontendGateway } from '../host.js';
import { describeFields, inputFields } from '../input-fields.js';
import { errorText } from '../one-shot.js';
import { relayProgress } from '../server-progress.js';
import { splitWords, wordsToInput } from '../words.js';
import type { ReplBackend } from './backend-types.js';
import type { ServersView } from './lsp-access.js';

export interface ReplState {
  json: boolean;
}

export interface ReplCommand {
  name: string;
  help: string;
  /** `signal`: Ctrl-C while the command runs (operations pass it on: the call is cancelled). */
  run(args: string, signal?: AbortSignal): Promise<string>;
}

/**
 * `progress`: where what a call waits for (servers starting and loading, with their progress) is
 * printed while it runs, one line per update, as the CLI prints it on a terminal's stderr.
 */
export function operationCommands(gateway: FrontendGateway, state: ReplState, progress?: (line: string) => void): ReplCommand[] {
  const out: ReplCommand[] = [];
  const taken = new Set<string>();
  for (const op of gateway.operations()) {
    const positional = op.repl?.positional ?? [];
    const usage = `${positional.map((p) => `<${p}>`).join(' ')}${positional.length ? ' ' : ''}[--field value ...]`;
    const run = (args: string, signal?: AbortSignal) => runOperation(gateway, state, op, args, positional, signal, progress);
    for (const name of [op.repl?.command, op.name]) {
      if (!name || taken.has(name)) continue;
      taken.add(name);
      out.push({ name, help: `${op.title}: ${usage}${name !== op.name ? ` (= ${op.name})` : ''}`, run });
    }
  }
  return out;
}

async function runOperation(
  gateway: FrontendGateway,
  state: ReplState,
  op: Operation,
  args: string,
  positional: string[],
  signal?: AbortSignal,
  progress?: (line: string) => void,
): Promise<string> {
  const relay = progress
    ? relayProgress(gateway.context.broker, (p) => {
        const line = progressLine(p);
        if (line) progress(line);
      })
    : undefined;
  try {
    const { input, extra } = wordsToInput(op, splitWords(args), positional, ['json']);
    const asJson = extra.json !== undefined ? extra.json !== 'false' : state.json;
    if (input.output_format === undefined) input.output_format = asJson ? 'json' : 'markdown';
    const { text } = await gateway.run(op.name, input, {
      defaultMaxMs: DEFAULT_MAX_MS,
      ...(signal ? { signal } : {}),
      ...(relay ? { progress: relay.progress } : {}),
    });
    return text;
  } catch (e) {
    return formatError(e);
  } finally {
    relay?.dispose();
  }
}

/** The one-shot CLI's error text (control characters of quoted names escaped), without its final newline. */
export function formatError(e: unknown): string {
  return errorText(e).text.trimEnd();
}

export function builtinCommands(gateway: FrontendGateway, state: ReplState, backend: ReplBackend, all: () => ReplCommand[]): ReplCommand[] {
  const trace = backend.trace;
  return [
    {
      name: 'servers',
      help: 'Configured servers and running sessions (state, pid, open documents, progress)',
      run: async () => {
        try {
          return serversText(await backend.servers());
        } catch (e) {
          return formatError(e);
        }
      },
    },
    {
      name: 'trace',
      help: 'Raw LSP traffic with timings: .trace on|off',
      run: async (args) => {
        const w = args.trim();
        try {
          if (w === 'on') await trace.on();
          else if (w === 'off') await trace.off();
          else if (w !== '') return 'usage: .trace on|off';
        } catch (e) {
          return formatError(e);
        }
        return `trace ${trace.enabled ? 'on' : 'off'}`;
      },
    },
    {
      name: 'json',
      help: 'Print structured results as JSON instead of markdown: .json on|off',
      run: async (args) => {
        const w = args.trim();
        if (w === 'on') state.json = true;
        else if (w === 'off') state.json = false;
        else if (w !== '') return 'usage: .json on|off';
        return `json ${state.json ? 'on' : 'off'}`;
      },
    },
    {
      name: 'raw',
      help: 'A raw LSP request to one server of the default root (or a workspace you opened): .raw [--workspace W] <server-id> <method> [json-params]',
      run: (args) => rawCommand(backend, args),
    },
    {
      name: 'help',
      help: 'List commands, or the fields of one: .help [command]',
      run: async (args) => helpText(gateway, backend, all(), args.trim().replace(/^\./, '')),
    },
  ];
}

function serversText(view: ServersView): string {
  const lines = ['configured servers:'];
  for (const s of view.servers) lines.push(`  ${s.id}  ${s.languages.join(',')}  ${s.extensions.join(' ')}`);
  const infos = view.sessions;
  lines.push(infos.length ? 'sessions:' : 'sessions: (none started yet)');
  for (const i of infos) {
    lines.push(
      `  ${i.serverId} @ ${i.root}: ${i.state}${i.pid ? ` pid ${i.pid}` : ''}${i.rssBytes !== undefined ? `, ${Math.round(i.rssBytes / 1048576)} MiB` : ''}, generation ${i.generation}, crashes ${i.crashes}, ` +
        `${i.openDocuments} open docs${i.progress.length ? `, progress: ${i.progress.join('; ')}` : ''}${i.lastError ? `, last error: ${i.lastError}` : ''}${i.stopReason ? ` (${i.stopReason})` : ''}`,
    );
  }
  return lines.join('\n');
}

const RAW_USAGE = 'usage: .raw [--workspace <id|path>] <server-id> <method> [json-params]';

async function rawCommand(backend: ReplBackend, args: string): Promise<string> {
  const m = /^\s*(?:--workspace\s+(\S+)\s+)?(\S+)\s+(\S+)\s*([\s\S]*)$/.exec(args);
  if (!m) return RAW_USAGE;
  const [, workspace, server, method, json] = m as unknown as [string, string | undefined, string, string, string];
  try {
    let params: unknown = null;
    if (json.trim()) {
      try {
        params = JSON.parse(json);
      } catch {
        throw new LspgateError('INVALID_INPUT', `params are not JSON: ${json.slice(0, 100)}`);
      }
    }
    const a = await backend.raw({ server, method, params, ...(workspace ? { workspace } : {}) });
    return `${jsonSafeText(JSON.stringify(a.result, null, 2))}\n(${a.ms.toFixed(1)} ms from ${a.server} @ ${a.root})`;
  } catch (e) {
    return formatError(e);
  }
}

function helpText(gateway: FrontendGateway, backend: ReplBackend, commands: ReplCommand[], topic: string): string {
  if (topic) {
    const cmd = commands.find((c) => c.name === topic);
    if (!cmd) return `no command .${topic}`;
    const op = gateway.operations().find((o) => o.name === topic || o.repl?.command === topic);
    const lines = [`.${cmd.name}  ${cmd.help}`];
    if (op) lines.push('', op.description, '', 'fields:', ...describeFields(inputFields(op)), '  --json  print the structured result');
    return lines.join('\n');
  }
  const width = Math.max(...commands.map((c) => c.name.length)) + 2;
  return [
    ...commands.map((c) => `.${c.name.padEnd(width)}${c.help}`),
    `.${'exit'.padEnd(width)}${backend.exitHelp}`,
    '',
    'Anything else is JavaScript with `gateway` and `run(name, input)` in scope (await works).',
  ].join('\n');
}
