/**
 * One table of operations feeds every front-end (MCP tools, sidecar methods, REPL commands, CLI
 * sub-commands). An operation is data plus a handler; front-ends never add logic of their own.
 */
import type { z } from 'zod';

import type { GatewayHandle, Workspace } from '../core/workspace.js';
import type { ErrorCode } from '../errors/errors.js';
import type { Deadline } from '../service/deadline.js';
import type { ServiceEnv } from '../service/env.js';
import type { MetaCollector } from './meta-collector.js';

export type { GatewayHandle };

export interface ProgressUpdate {
  progress: number;
  total?: number;
  message?: string;
}

export interface OperationContext {
  /** The workspace the call targets (input `workspace`, else the gateway's default root). */
  workspace: Workspace;
  /** The servers, broker, limits, cache directory and logger the service works with. */
  env: ServiceEnv;
  /** Resolves another opened workspace by id or path (index_folder, list_repos...). */
  gateway: GatewayHandle;
  signal?: AbortSignal;
  progress?: (p: ProgressUpdate) => void;
  /** The caller's bound on waiting for language servers (`wait_ms`, or the front-end's default). */
  waitMs?: number;
  /** A wide operation's deadline (`max_ms`). */
  deadline?: Deadline;
  meta: MetaCollector;
  /** Tokens saved so far: by this client's session, and by every client of this cache directory (persisted). */
  savedTokens(): { session: number; total: number };
}

/** MCP tool annotations, each stated by every operation (annotations.ts names the usual sets and says why). */
export interface OperationAnnotations {
  readOnlyHint: boolean;
  idempotentHint: boolean;
  destructiveHint: boolean;
  openWorldHint: boolean;
}

/**
 * The smallest MCP tool profile that lists an operation: `core` (one tool per step of an agent's
 * loop) is part of `all`; `name`: listed only when asked for by name (`--tools search`), for an
 * operation that answers another's question in an earlier shape some clients ask for by name.
 */
export type ToolProfile = 'core' | 'all' | 'name';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyZodObject = z.ZodObject<any>;

export interface Operation<I extends AnyZodObject = AnyZodObject, O extends AnyZodObject = AnyZodObject> {
  /** snake_case; the MCP tool name, the sidecar method and the CLI sub-command. */
  name: string;
  title: string;
  /**
   * Written for agents: what it answers, when to use it, what it returns. Names no other operation:
   * a profile may not list it (see `related`).
   */
  description: string;
  /**
   * Other operations worth naming beside this one, each with the phrase that follows its name
   * ("for its uses", "instead for text that is no symbol name"). A tool's listed description
   * names only those its profile lists (describe.ts).
   */
  related?: Readonly<Record<string, string>>;
  /** Input fields of this operation; `workspace` and `output_format` are added by the registry. */
  input: I;
  /** Result schema including `_meta` (build it with withMeta from schema/meta.ts). */
  output: O;
  annotations: OperationAnnotations;
  /** Default `all`. */
  profile?: ToolProfile;
  /**
   * Its whole answer may come from the operation cache: read-only, idempotent, and built only from
   * what the dependency recorder sees (sessions behind the response cache, the files synced to them
   * or read through them, the catalog). An operation that reads the disk by another path (text
   * search, repository listings, drift) must not say so: a hit could not prove itself fresh.
   */
  cacheable?: boolean;
  /**
   * What its answer is built from when that is neither a parse tree nor a server: `text` (lines,
   * hashes, grep matches of the files as they are) or `process` (the daemon's own state). Such an
   * answer is never labeled `index_state: syntax`; every other answer built from syntax trees where
   * no server runs is (service/syntax-label.ts).
   */
  answersFrom?: 'text' | 'process';
  /**
   * It may wait for a language server to start and load the file's project (a semantic question):
   * it takes `wait_ms`, past which it answers NOT_READY while the server goes on loading.
   */
  waitsForServers?: true;
  /**
   * The errors a caller can cause besides the two every operation has (an unknown or malformed field:
   * INVALID_INPUT; a workspace that is not open: WORKSPACE_NOT_FOUND). Listed in the reference docs;
   * the client matrix provokes each one (test/helpers/mcp-client-cases.mjs).
   */
  callerErrors?: readonly ErrorCode[];
  /** It opens a workspace instead of looking one up (index_folder, index_repo): no WORKSPACE_NOT_FOUND. */
  opensWorkspace?: true;
  /** It walks many files (callers, impact, importers): it takes `max_ms`, at which it answers with what it has. */
  wide?: true;
  /** REPL dot-command (without the dot) and which input fields its positional words fill. */
  repl?: { command: string; positional: string[] };
  handler(input: z.infer<I>, ctx: OperationContext): Promise<Omit<z.infer<O>, '_meta'>>;
  /** Markdown for people and terminals; defaults to a generic rendering of the result. */
  markdown?(result: z.infer<O>): string;
}

export function defineOperation<I extends AnyZodObject, O extends AnyZodObject>(op: Operation<I, O>): Operation<I, O> {
  return op;
}
