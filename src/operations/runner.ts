import { z } from 'zod';
import { LspgateError, toLspgateError } from '../errors/errors.js';
import type { Meta } from '../schema/meta.js';
import type { Workspace } from '../gateway/types.js';
import { genericMarkdown } from './markdown.js';
import { MetaCollector } from './meta-collector.js';
import type { SavingsLedger } from './savings.js';
import type { AnyZodObject, GatewayHandle, Operation, ProgressUpdate } from './types.js';

export const OutputFormatSchema = z.enum(['json', 'markdown']);
export type OutputFormat = z.infer<typeof OutputFormatSchema>;

/** Fields every operation takes besides its own. */
export const commonInputShape = {
  workspace: z
    .string()
    .optional()
    .describe('Workspace id or root path (from list_workspaces / index_folder); default: the root lspgate was started with'),
  output_format: OutputFormatSchema.optional().describe('Text rendering of the result: markdown (default) or json'),
};

const publicSchemas = new WeakMap<Operation, AnyZodObject>();

/**
 * The full input schema front-ends publish: the operation's own fields plus the common ones.
 * Built once per operation: `extend` makes a new schema that zod compiles again on first parse,
 * which showed as a fixed cost on every call in the benchmark.
 */
export function publicInputSchema(op: Operation): AnyZodObject {
  let schema = publicSchemas.get(op);
  if (!schema) publicSchemas.set(op, (schema = op.input.extend(commonInputShape)));
  return schema;
}

export interface RunOptions {
  signal?: AbortSignal;
  progress?: (p: ProgressUpdate) => void;
}

export interface RunResult {
  /** The structured result, `_meta` included, valid against `op.output`. */
  result: Record<string, unknown> & { _meta: Meta };
  format: OutputFormat;
  /** The result rendered in `format`. */
  text: string;
}

export interface RunnerHost extends GatewayHandle {
  workspaceFor(idOrPath: string | undefined): Promise<Workspace>;
  readonly savings: SavingsLedger;
}

/**
 * Validates input, runs the handler, builds `_meta`, validates output. Every failure leaves as an
 * LspgateError with a code; nothing is swallowed.
 */
export class OperationRunner {
  private readonly byName = new Map<string, Operation>();

  constructor(
    operations: readonly Operation[],
    private readonly host: RunnerHost,
  ) {
    for (const op of operations) {
      if (this.byName.has(op.name)) throw new Error(`duplicate operation ${op.name}`);
      this.byName.set(op.name, op);
    }
  }

  list(): Operation[] {
    return [...this.byName.values()];
  }

  get(name: string): Operation | undefined {
    return this.byName.get(name);
  }

  async run(name: string, rawInput: unknown, opts: RunOptions = {}): Promise<RunResult> {
    const started = performance.now();
    const op = this.byName.get(name);
    if (!op) {
      throw new LspgateError('UNKNOWN_OPERATION', `unknown operation: ${String(name).slice(0, 100)}`, {
        operations: [...this.byName.keys()],
      });
    }
    const parsed = publicInputSchema(op).safeParse(rawInput ?? {});
    if (!parsed.success) {
      throw new LspgateError('INVALID_INPUT', `invalid input for ${name}: ${z.prettifyError(parsed.error)}`, {
        issues: parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
      });
    }
    const { workspace: wsName, output_format, ...input } = parsed.data as Record<string, unknown> & {
      workspace?: string;
      output_format?: OutputFormat;
    };
    if (opts.signal?.aborted) throw new LspgateError('CANCELLED', 'cancelled before start');
    const workspace = await this.host.workspaceFor(wsName);
    const meta = new MetaCollector();
    let body: Record<string, unknown>;
    try {
      body = (await op.handler(input, {
        workspace,
        gateway: this.host,
        signal: opts.signal,
        progress: opts.progress,
        meta,
      })) as Record<string, unknown>;
    } catch (e) {
      throw toLspgateError(e);
    }
    const bodyBytes = Buffer.byteLength(JSON.stringify(body));
    const maxBytes = workspace.gateway.limits.maxResponseBytes;
    if (bodyBytes > maxBytes) {
      throw new LspgateError('LIMIT_EXCEEDED', `answer of ${bodyBytes} bytes exceeds maxResponseBytes ${maxBytes}; narrow the query or lower max_results`, {
        limit: 'maxResponseBytes',
        value: maxBytes,
        actual: bodyBytes,
      });
    }
    const tokensSaved = Math.max(0, Math.floor((meta.rawBytes() - bodyBytes) / 4));
    const _meta: Meta = {
      timing_ms: Math.round((performance.now() - started) * 100) / 100,
      workspace: workspace.root,
      truncated: meta.truncated,
      ...(meta.nextCursor !== undefined ? { next_cursor: meta.nextCursor } : {}),
      tokens_saved: tokensSaved,
      total_tokens_saved: this.host.savings.add(tokensSaved),
      index_state: meta.indexState,
      servers: [...meta.servers.values()],
      ...(meta.limitsHit.length ? { limits_hit: meta.limitsHit } : {}),
      ...(meta.contentVerified !== undefined ? { content_verified: meta.contentVerified } : {}),
      ...(meta.warnings.length ? { warnings: meta.warnings } : {}),
    };
    const result = { ...body, _meta };
    const checked = op.output.safeParse(result);
    if (!checked.success) {
      throw new LspgateError('INTERNAL', `${name} produced a result that does not match its schema: ${z.prettifyError(checked.error)}`);
    }
    const format: OutputFormat = output_format ?? 'markdown';
    const text =
      format === 'json' ? JSON.stringify(checked.data, null, 2) : op.markdown ? op.markdown(checked.data) : genericMarkdown(checked.data, op.title);
    return { result: checked.data as RunResult['result'], format, text };
  }
}
