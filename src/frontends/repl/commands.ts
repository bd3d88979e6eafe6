/**
 * The REPL's commands: one per operation (its `repl.command` and its own name), plus `.servers`,
 * `.trace`, `.raw`, `.json` and `.help`. Each returns the text to print; failures are printed as
 * `CODE: message` with details, never thrown at the REPL.
 */
import { toLspgateError, LspgateError } from '../../errors/errors.js';
import type { Gateway } from '../../gateway/gateway.js';
import type { LspSession } from '../../lsp/types.js';
import type { Operation } from '../../operations/types.js';
import { resolveInWorkspace } from '../../util/paths.js';
import { describeFields, inputFields } from '../input-fields.js';
import { splitWords, wordsToInput } from '../words.js';
import type { TraceTap } from './trace.js';

export interface ReplState {
  json: boolean;
}

export interface ReplCommand {
  name: string;
  help: string;
  run(args: string): Promise<string>;
}

export function operationCommands(gateway: Gateway, state: ReplState): ReplCommand[] {
  const out: ReplCommand[] = [];
  const taken = new Set<string>();
  for (const op of gateway.operations()) {
    const positional = op.repl?.positional ?? [];
    const usage = `${positional.map((p) => `<${p}>`).join(' ')}${positional.length ? ' ' : ''}[--field value ...]`;
    const run = (args: string) => runOperation(gateway, state, op, args, positional);
    for (const name of [op.repl?.command, op.name]) {
      if (!name || taken.has(name)) continue;
      taken.add(name);
      out.push({ name, help: `${op.title}: ${usage}${name !== op.name ? ` (= ${op.name})` : ''}`, run });
    }
  }
  return out;
}

async function runOperation(gateway: Gateway, state: ReplState, op: Operation, args: string, positional: string[]): Promise<string> {
  try {
    const { input, extra } = wordsToInput(op, splitWords(args), positional, ['json']);
    const asJson = extra.json !== undefined ? extra.json !== 'false' : state.json;
    if (input.output_format === undefined) input.output_format = asJson ? 'json' : 'markdown';
    const { text } = await gateway.run(op.name, input);
    return text;
  } catch (e) {
    return formatError(e);
  }
}

export function formatError(e: unknown): string {
  const err = toLspgateError(e);
  const details = err.details === undefined ? '' : `\n${JSON.stringify(err.details, null, 2)}`;
  return `${err.code}: ${err.message}${details}`;
}

export function builtinCommands(gateway: Gateway, state: ReplState, trace: TraceTap, all: () => ReplCommand[]): ReplCommand[] {
  return [
    {
      name: 'servers',
      help: 'Configured servers and running sessions (state, pid, open documents, progress)',
      run: async () => serversText(gateway),
    },
    {
      name: 'trace',
      help: 'Raw LSP traffic with timings: .trace on|off',
      run: async (args) => {
        const w = args.trim();
        if (w === 'on') trace.on();
        else if (w === 'off') trace.off();
        else if (w !== '') return 'usage: .trace on|off';
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
      help: 'A raw LSP request to one server of the default root: .raw <server-id> <method> [json-params]',
      run: (args) => rawRequest(gateway, args),
    },
    {
      name: 'help',
      help: 'List commands, or the fields of one: .help [command]',
      run: async (args) => helpText(gateway, all(), args.trim().replace(/^\./, '')),
    },
  ];
}

function serversText(gateway: Gateway): string {
  const lines = ['configured servers:'];
  for (const s of gateway.context.servers) lines.push(`  ${s.id}  ${s.languages.join(',')}  ${s.extensions.join(' ')}`);
  const infos = gateway.context.broker.info();
  lines.push(infos.length ? 'sessions:' : 'sessions: (none started yet)');
  for (const i of infos) {
    lines.push(
      `  ${i.serverId} @ ${i.root}: ${i.state}${i.pid ? ` pid ${i.pid}` : ''}${i.rssBytes !== undefined ? `, ${Math.round(i.rssBytes / 1048576)} MiB` : ''}, generation ${i.generation}, crashes ${i.crashes}, ` +
        `${i.openDocuments} open docs${i.progress.length ? `, progress: ${i.progress.join('; ')}` : ''}${i.lastError ? `, last error: ${i.lastError}` : ''}`,
    );
  }
  return lines.join('\n');
}

async function rawRequest(gateway: Gateway, args: string): Promise<string> {
  const m = /^\s*(\S+)\s+(\S+)\s*([\s\S]*)$/.exec(args);
  if (!m) return 'usage: .raw <server-id> <method> [json-params]';
  const [, serverId, method, json] = m as unknown as [string, string, string, string];
  try {
    let params: unknown = null;
    if (json.trim()) {
      try {
        params = JSON.parse(json);
      } catch {
        throw new LspgateError('INVALID_INPUT', `params are not JSON: ${json.slice(0, 100)}`);
      }
    }
    const session = await sessionOf(gateway, serverId);
    params = await openNamedDocument(gateway, session, params);
    const started = performance.now();
    const reply = await session.requestRaw(method, params);
    return `${JSON.stringify(reply, null, 2)}\n(${(performance.now() - started).toFixed(1)} ms from ${serverId} @ ${session.root})`;
  } catch (e) {
    return formatError(e);
  }
}

/**
 * Convenience for people: `"textDocument": {"uri": "src/app.ts"}` names a workspace file; it is
 * resolved like every caller path, opened (didOpen) so servers like tsserver have a project, and
 * replaced by its file URI. A real `file:` URI is passed through untouched.
 */
async function openNamedDocument(gateway: Gateway, session: LspSession, params: unknown): Promise<unknown> {
  const td = (params as { textDocument?: { uri?: unknown } } | null)?.textDocument;
  if (!td || typeof td.uri !== 'string' || /^[a-z][a-z0-9+.-]*:/i.test(td.uri)) return params;
  const abs = resolveInWorkspace(gateway.defaultRoot, td.uri, { expect: 'file' });
  const doc = await session.syncDocument(abs);
  return { ...(params as object), textDocument: { ...td, uri: doc.uri } };
}

/** An existing session of that server under the default root, else one started at the default root. */
async function sessionOf(gateway: Gateway, serverId: string): Promise<LspSession> {
  const { broker, servers } = gateway.context;
  if (!servers.some((s) => s.id === serverId)) {
    throw new LspgateError('INVALID_INPUT', `no configured server ${serverId}`, { servers: servers.map((s) => s.id) });
  }
  const root = gateway.defaultRoot;
  const existing = broker.existing().filter((s) => s.serverId === serverId && (s.root === root || s.root.startsWith(root + '/')));
  const exact = existing.find((s) => s.root === root) ?? existing[0];
  if (exact) return exact;
  const session = await broker.session(serverId, root);
  await session.waitReady();
  return session;
}

function helpText(gateway: Gateway, commands: ReplCommand[], topic: string): string {
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
    `.${'exit'.padEnd(width)}Stop every server and exit`,
    '',
    'Anything else is JavaScript with `gateway` and `run(name, input)` in scope (await works).',
  ].join('\n');
}
