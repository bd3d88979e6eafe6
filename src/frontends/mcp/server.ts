/**
 * The MCP face of the operation table: one tool per operation, built by a factory so the SDK's
 * serving entries (serveStdio, createMcpHandler) can make one instance per connection or per
 * HTTP request and serve both protocol eras (2025-11-25 and 2026-07-28) from the same definition.
 */
import { McpServer, type CallToolResult, type ServerContext, type StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { FrontendGateway } from '../host.js';
import { publicInputSchema } from '../../operations/runner.js';
import type { Operation } from '../../operations/types.js';
import { relayProgress } from '../server-progress.js';
import { packageVersion } from '../version.js';
import { errorResult } from './error-result.js';
import { installLogging } from './logging.js';
import { registerPrompts } from './prompts.js';
import { registerResources } from './resources.js';
import { installSubscriptions } from './subscriptions.js';

export const MCP_SERVER_NAME = 'lspgate';

export interface McpServerOptions {
  /**
   * Forward this process's log lines to the client (default true). False in the daemon: its log
   * speaks of every client (their roots, pids), so a hosted server forwards only its own client's
   * server lifecycle events.
   */
  forwardLogs?: boolean;
}

/** `tools`: the operations to list (a tool profile, operations/profiles.ts); all when absent. */
export function createMcpServer(gateway: FrontendGateway, tools?: ReadonlySet<string>, opts: McpServerOptions = {}): McpServer {
  const server = new McpServer(
    { name: MCP_SERVER_NAME, version: packageVersion() },
    {
      capabilities: { tools: {} },
      instructions:
        'lspgate answers code-intelligence questions from real language servers. Start with list_workspaces or get_file_outline; ' +
        'name symbols by `symbol`, `symbol_id` (from earlier answers) or `file` + `line`. Errors carry a `code` you can act on. ' +
        'Resources: lspgate://{workspace}/outline/{file}, lspgate://{workspace}/symbol/{symbol_id}, lspgate://{workspace}/repo-outline.',
    },
  );
  for (const op of gateway.operations()) if (!tools || tools.has(op.name)) registerOperation(server, gateway, op);
  registerResources(server, gateway);
  registerPrompts(server, gateway);
  const disposers = [installSubscriptions(server, gateway), installLogging(server, gateway, opts.forwardLogs ?? true)];
  // One server per connection (or per stateless HTTP request): its watches and taps end with it.
  const previous = server.server.onclose;
  server.server.onclose = () => {
    previous?.();
    for (const dispose of disposers.splice(0)) dispose();
  };
  return server;
}

function registerOperation(server: McpServer, gateway: FrontendGateway, op: Operation): void {
  const a = op.annotations ?? {};
  server.registerTool(
    op.name,
    {
      title: op.title,
      description: op.description,
      inputSchema: listedOnly(publicInputSchema(op)),
      outputSchema: checkedByRunner(op.output),
      annotations: {
        title: op.title,
        // Every operation only reads unless it says otherwise; the world is closed (the workspace).
        readOnlyHint: a.readOnlyHint ?? true,
        idempotentHint: a.idempotentHint ?? true,
        destructiveHint: a.destructiveHint ?? false,
        openWorldHint: a.openWorldHint ?? false,
      },
    },
    (args: unknown, ctx: ServerContext) => callOperation(gateway, op.name, args, ctx),
  );
}

/**
 * Runs one operation for a tools/call. An LspgateError is a result the model can act on
 * (`isError: true`, the coded payload as text and `_meta`: see error-result.ts).
 */
export async function callOperation(gateway: FrontendGateway, name: string, args: unknown, ctx: ServerContext): Promise<CallToolResult> {
  const token = ctx.mcpReq._meta?.progressToken;
  // Only a client that asked for progress (sent a progressToken) gets it: the operation's own and
  // the language servers' start/indexing states while the call runs.
  const relay =
    token === undefined
      ? undefined
      : relayProgress(gateway.context.broker, (p) => {
          void ctx.mcpReq
            .notify({ method: 'notifications/progress', params: { progressToken: token, ...p } })
            .catch(() => undefined); // the request may already be answered or the client gone: progress is best effort
        });
  try {
    const { result, text } = await gateway.run(name, args ?? {}, { signal: ctx.mcpReq.signal, progress: relay?.progress });
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
        input: (o) => z.toJSONSchema(schema, { target: targetOf(o.target), io: 'input', unrepresentable: 'any' }) as Record<string, unknown>,
        output: (o) => z.toJSONSchema(schema, { target: targetOf(o.target), io: 'output', unrepresentable: 'any' }) as Record<string, unknown>,
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
      jsonSchema: schema['~standard'].jsonSchema,
    },
  };
}

function targetOf(t: string): 'draft-2020-12' | 'draft-7' | 'openapi-3.0' {
  if (t === 'draft-07') return 'draft-7';
  if (t === 'openapi-3.0') return 'openapi-3.0';
  return 'draft-2020-12';
}
