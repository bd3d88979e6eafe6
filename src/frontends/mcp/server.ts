/**
 * The MCP face of the operation table: one tool per operation, built by a factory so the SDK's
 * serving entries (serveStdio, createMcpHandler) can make one instance per connection or per
 * HTTP request and serve both protocol eras (2025-11-25 and 2026-07-28) from the same definition.
 */
import { type CallToolResult, McpServer, type ServerContext, type StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { z } from 'zod';

import { describeOperation } from '../../operations/describe.js';
import { profileTools } from '../../operations/profiles.js';
import { DEFAULT_MAX_MS, DEFAULT_WAIT_MS, publicInputSchema } from '../../operations/runner.js';
import type { Operation, OperationAnnotations } from '../../operations/types.js';
import type { FrontendGateway } from '../host.js';
import { relayProgress } from '../server-progress.js';
import { packageVersion } from '../version.js';
import { errorResult } from './error-result.js';
import { installLogging } from './logging.js';
import { registerPrompts } from './prompts.js';
import { registerResources } from './resources.js';
import { installSubscriptions } from './subscriptions.js';
import { compactInputSchema, compactOutputSchema, DEADLINE_SUMMARY, META_SUMMARY, WAIT_SUMMARY } from './tool-schema.js';

export const MCP_SERVER_NAME = 'lspgate';

export interface McpServerOptions {
  /**
   * Forward this process's log lines to the client (default true). False in the daemon: its log
   * speaks of every client (their roots, pids), so a hosted server forwards only its own client's
   * server lifecycle events.
   */
  forwardLogs?: boolean;
  /** Configuration the server ignored (a repository widening the user's tool profile): said in the instructions. */
  warnings?: readonly string[];
  /** The deadline of a wide tool called without `max_ms` (default DEFAULT_MAX_MS; tests lower it). */
  defaultMaxMs?: number;
}

/** `tools`: the operations to list (a tool profile, operations/profiles.ts); every operation of the `all` profile when absent (`lspgate mcp` passes its `default`). */
export function createMcpServer(gateway: FrontendGateway, tools?: ReadonlySet<string>, opts: McpServerOptions = {}): McpServer {
  const shown = tools ?? new Set(profileTools('all', gateway.operations()));
  const listed = (name: string) => shown.has(name);
  // Operations listed only by name (another's answer in another shape) are not worth a pointer.
  const unlisted = gateway.operations().filter((op) => !listed(op.name) && op.profile !== 'name').length;
  const server = new McpServer(
    { name: MCP_SERVER_NAME, version: packageVersion() },
    { capabilities: { tools: {} }, instructions: serverInstructions(listed, unlisted, opts.warnings) },
  );
  for (const op of gateway.operations()) if (listed(op.name)) registerOperation(server, gateway, op, listed, opts.defaultMaxMs ?? DEFAULT_MAX_MS);
  registerResources(server, gateway);
  registerPrompts(server, gateway, listed);
  const disposers = [installSubscriptions(server, gateway), installLogging(server, gateway, opts.forwardLogs ?? true)];
  // One server per connection (or per stateless HTTP request): its watches and taps end with it.
  const previous = server.server.onclose;
  server.server.onclose = () => {
    previous?.();
    for (const dispose of disposers.splice(0)) dispose();
  };
  return server;
}

/** The tools an agent starts with, in the order it would try them. */
const ORIENTING = ['get_repo_outline', 'list_workspaces', 'get_file_outline', 'search_symbols'];

/**
 * The server's instructions, naming only tools the profile lists (an agent would call the others in
 * vain). How a name resolves is said here once instead of in every tool that takes one. `unlisted`:
 * how many operations the profile leaves out; the agent cannot restart its server, so it is told what
 * to ask its user for.
 */
export function serverInstructions(listed: (name: string) => boolean, unlisted = 0, warnings: readonly string[] = []): string {
  const start = ORIENTING.filter(listed).slice(0, 2);
  return [
    'lspgate answers code-intelligence questions from real language servers.',
    ...(start.length ? [`Start with ${start.join(' or ')}.`] : []),
    'Name a symbol by `symbol` (a name or qualified name), `symbol_id` (from an earlier answer) or `file` + `line`;',
    'a name several declarations share answers the one a developer would pick (module-level before members before locals, source before tests;',
    'the others in `_meta.alternatives`), a real tie is AMBIGUOUS_SYMBOL with ranked candidates, and `strict: true` never picks.',
    `Every result carries \`_meta\` (${META_SUMMARY}).`,
    'Errors carry a `code` you can act on.',
    WAIT_SUMMARY,
    DEADLINE_SUMMARY,
    'Resources: lspgate://{workspace}/outline/{file}, lspgate://{workspace}/symbol/{symbol_id}, lspgate://{workspace}/repo-outline.',
    ...(unlisted > 0
      ? [
          `${unlisted} more tools (such as relationships, impact, dead code, diagrams, code search, reports, more edits, workspace management) are not listed:`,
          'to get them, ask the user to start lspgate with `--tools all` (or `--tools` with a comma-separated list of names),',
          'or to set "tools" in their lspgate config.json.',
        ]
      : []),
    ...warnings.map((w) => `Configuration warning: ${w}.`),
  ].join(' ');
}

function registerOperation(server: McpServer, gateway: FrontendGateway, op: Operation, listed: (name: string) => boolean, defaultMaxMs: number): void {
  server.registerTool(
    op.name,
    {
      title: op.title,
      description: describeOperation(op, listed),
      inputSchema: listedOnly(publicInputSchema(op)),
      outputSchema: checkedByRunner(op.output),
      annotations: listedAnnotations(op.annotations),
    },
    (args: unknown, ctx: ServerContext) => callOperation(gateway, op.name, args, ctx, defaultMaxMs),
  );
}

/**
 * The annotations as listed: the MCP spec gives destructiveHint and idempotentHint meaning only when
 * readOnlyHint is false, so a read-only tool lists readOnlyHint and openWorldHint alone.
 */
export function listedAnnotations(a: OperationAnnotations): Partial<OperationAnnotations> {
  return a.readOnlyHint ? { readOnlyHint: true, openWorldHint: a.openWorldHint } : { ...a };
}

/**
 * Runs one operation for a tools/call. An LspgateError is a result the model can act on
 * (`isError: true`, the coded payload as text and `_meta`: see error-result.ts).
 */
export async function callOperation(
  gateway: FrontendGateway,
  name: string,
  args: unknown,
  ctx: ServerContext,
  defaultMaxMs = DEFAULT_MAX_MS,
): Promise<CallToolResult> {
  const token = ctx.mcpReq._meta?.progressToken;
  // Only a client that asked for progress (sent a progressToken) gets it: the operation's own and
  // the language servers' start/indexing states while the call runs.
  const relay =
    token === undefined
      ? undefined
      : relayProgress(gateway.context.broker, (p) => {
          void ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, ...p } }).catch(() => undefined); // the request may already be answered or the client gone: progress is best effort
        });
  try {
    // an agent waits at most DEFAULT_WAIT_MS for a server, and a wide answer comes by DEFAULT_MAX_MS, unless it says otherwise
    const { result, text } = await gateway.run(name, args ?? {}, {
      signal: ctx.mcpReq.signal,
      progress: relay?.progress,
      defaultWaitMs: DEFAULT_WAIT_MS,
      defaultMaxMs,
    });
    return { content: [{ type: 'text', text }], structuredContent: result };
  } catch (e) {
    return errorResult(e);
  } finally {
    relay?.dispose();
  }
}

/**
 * The real schema for `tools/list`, but no validation by the SDK on `tools/call`: the operation
 * runner validates and answers INVALID_INPUT with the failing fields as a coded `isError` result,
 * which the SDK's own validation (a bare text message) would hide from the model.
 */
function listedOnly(schema: z.ZodType): StandardSchemaWithJSON {
  return {
    '~standard': {
      version: 1,
      vendor: 'lspgate',
      validate: (value: unknown) => ({ value }),
      jsonSchema: {
        input: (o) =>
          compactInputSchema(z.toJSONSchema(schema, { target: targetOf(o.target), io: 'input', unrepresentable: 'any' }) as Record<string, unknown>),
        output: (o) =>
          compactInputSchema(z.toJSONSchema(schema, { target: targetOf(o.target), io: 'output', unrepresentable: 'any' }) as Record<string, unknown>),
      },
    },
  };
}

/**
 * The operation's output schema for `tools/list` (zod's own JSON Schema, as the SDK would print
 * it), without a second validation on `tools/call`: the runner has already parsed every result
 * with this very schema (OperationRunner.run), and the SDK's repeat of that parse cost as much as
 * the runner's own on large answers.
 */
function checkedByRunner(schema: z.ZodType): StandardSchemaWithJSON {
  return {
    '~standard': {
      version: 1,
      vendor: 'lspgate',
      validate: (value: unknown) => ({ value }),
      jsonSchema: {
        input: (o) => compactOutputSchema(schema['~standard'].jsonSchema.input(o)),
        output: (o) => compactOutputSchema(schema['~standard'].jsonSchema.output(o)),
      },
    },
  };
}

function targetOf(t: string): 'draft-2020-12' | 'draft-7' | 'openapi-3.0' {
  if (t === 'draft-07') return 'draft-7';
  if (t === 'openapi-3.0') return 'openapi-3.0';
  return 'draft-2020-12';
}
