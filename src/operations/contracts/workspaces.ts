/**
 * Contracts of the workspace operations: their result schemas and types.
 */
import { z } from 'zod';

import { withMeta } from '../../schema/meta.js';

export const ServerSchema = z.object({
  id: z.string(),
  root: z.string(),
  state: z
    .string()
    .describe(
      'idle | starting | indexing | ready | crashed | failed | stopping | stopped (also: unused for its ' +
        'idle time) | evicted (shut down under the memory budget); the next request starts it again',
    ),
  pid: z.number().int().optional(),
  rss_bytes: z.number().int().optional().describe("Resident memory of the server's whole process tree (for evicted: when it was shut down)"),
  generation: z.number().int().describe('1 for the first process, +1 per restart'),
  crashes: z.number().int(),
  progress: z.array(z.string()).describe('Open $/progress titles (indexing)'),
});

export const CatalogSchema = z.object({
  state: z.string(),
  files: z.number().int(),
  symbols: z.number().int(),
  languages: z.record(z.string(), z.number()).describe('Cataloged files per language'),
  indexed_at: z.string().optional(),
  git_head: z.string().optional(),
  failed_files: z.number().int(),
});

export const SessionStatusSchema = z.object({
  server: z.string(),
  root: z.string(),
  state: z.string().describe('idle | starting | indexing | ready | crashed | failed | stopping | stopped | evicted'),
  pid: z.number().int().optional(),
  rss_bytes: z.number().int().optional().describe("Resident memory of the server's whole process tree"),
  generation: z.number().int(),
  crashes: z.number().int(),
  open_documents: z.number().int(),
  note: z.string().optional().describe('Why it is stopped or evicted (unused for the session idle time, over the memory budget)'),
});

export const ClientStatusSchema = z.object({
  id: z.number().int(),
  frontend: z.string().describe('mcp | mcp-http | sidecar | repl | cli'),
  root: z.string().describe("The client's --root"),
  pid: z.number().int().optional(),
  attached_ms: z.number().int().describe('How long the client has been attached'),
  in_flight: z.number().int().describe("The client's requests running now (this call included)"),
});

export const ListWorkspacesOutput = withMeta({
  workspaces: z.array(
    z.object({
      id: z.string(),
      root: z.string(),
      languages: z.array(z.string()),
      catalog: CatalogSchema,
      servers: z.array(ServerSchema),
      derived_bytes: z
        .record(z.string(), z.number().int())
        .describe(
          'Memory held by what is derived from the workspace catalog (import_graph, chunk_index, vectors, ' +
            'outlines, operation_cache:*, ...), estimated, per index; dropped when the workspace is closed',
        ),
    }),
  ),
});
export type ListWorkspacesResult = z.infer<typeof ListWorkspacesOutput>;

export const DaemonStatusOutput = withMeta({
  daemon: z.boolean().describe('true when this call was answered by the shared lspgate daemon'),
  pid: z.number().int().optional(),
  version: z.string().optional(),
  socket: z.string().optional(),
  uptime_ms: z.number().int().optional(),
  idle_exit_ms: z.number().int().optional(),
  server_idle_ms: z.number().int().optional().describe('A language-server session unused this long stops with its server (0: never)'),
  memory_budget: z
    .object({
      limit_bytes: z.number().int().describe('0: none'),
      source: z.enum(['config', 'machine']).describe("config: limits.serverMemoryMb; machine: half of the machine's memory"),
      servers_bytes: z.number().int().describe("RSS of every running server's process tree, summed"),
    })
    .optional()
    .describe('Over the budget, idle sessions stop, least recently used first'),
  rss_bytes: z.number().int().optional().describe('RSS of the daemon process alone'),
  clients: z.array(ClientStatusSchema).optional(),
  sessions: z.array(SessionStatusSchema),
  total_tokens_saved: z.number().int().describe("Tokens every client's answers saved with this cache directory, persisted across runs"),
});
export type DaemonStatusResult = z.infer<typeof DaemonStatusOutput>;
