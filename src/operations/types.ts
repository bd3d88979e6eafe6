/**
 * One table of operations feeds every front-end (MCP tools, sidecar methods, REPL commands, CLI
 * sub-commands). An operation is data plus a handler; front-ends never add logic of their own.
 */
import type { z } from 'zod';
import type { Workspace } from '../gateway/types.js';
import type { MetaCollector } from './meta-collector.js';

export interface ProgressUpdate {
  progress: number;
  total?: number;
  message?: string;
}

export interface OperationContext {
  /** The workspace the call targets (input `workspace`, else the gateway's default root). */
  workspace: Workspace;
  /** Resolves another opened workspace by id or path (index_folder, list_repos...). */
  gateway: GatewayHandle;
  signal?: AbortSignal;
  progress?: (p: ProgressUpdate) => void;
  meta: MetaCollector;
}

/** What handlers may ask of the gateway beyond their own workspace. */
export interface GatewayHandle {
  /** Opens (or returns the already opened) workspace at an absolute or cwd-relative path. */
  openWorkspace(path: string): Promise<Workspace>;
  workspaces(): Workspace[];
  closeWorkspace(idOrPath: string): Promise<boolean>;
  readonly defaultRoot: string;
  /** Throws PATH_OUTSIDE_WORKSPACE unless the real folder may be opened (gateway/root-policy.ts). */
  assertAllowedRoot(realDir: string, asked: string): void;
}

export interface OperationAnnotations {
  readOnlyHint: boolean;
  idempotentHint: boolean;
  destructiveHint: boolean;
  openWorldHint: boolean;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyZodObject = z.ZodObject<any>;

export interface Operation<I extends AnyZodObject = AnyZodObject, O extends AnyZodObject = AnyZodObject> {
  /** snake_case; the MCP tool name, the sidecar method and the CLI sub-command. */
  name: string;
  title: string;
  /** Written for agents: when to use it, what it returns, what to call next. */
  description: string;
  /** Input fields of this operation; `workspace` and `output_format` are added by the registry. */
  input: I;
  /** Result schema including `_meta` (build it with withMeta from schema/meta.ts). */
  output: O;
  annotations?: Partial<OperationAnnotations>;
  /** REPL dot-command (without the dot) and which input fields its positional words fill. */
  repl?: { command: string; positional: string[] };
  handler(input: z.infer<I>, ctx: OperationContext): Promise<Omit<z.infer<O>, '_meta'>>;
  /** Markdown for people and terminals; defaults to a generic rendering of the result. */
  markdown?(result: z.infer<O>): string;
}

export function defineOperation<I extends AnyZodObject, O extends AnyZodObject>(op: Operation<I, O>): Operation<I, O> {
  return op;
}
