/**
 * list_workspaces: open workspaces and the state of each language server serving them.
 */
import { z } from 'zod';

import { withMeta } from '../../schema/meta.js';
import { ServiceCall } from '../../service/call.js';
import { daemonStatusAnswer } from '../../service/workspace/daemon-status.js';
import { listRepos } from '../../service/workspace/repository.js';
import { listWorkspaces } from '../../service/workspace/workspace-info.js';
import { READ_ONLY } from '../annotations.js';
import { defineOperation, type Operation } from '../types.js';

const ServerSchema = z.object({
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

const CatalogSchema = z.object({
  state: z.string(),
  files: z.number().int(),
  symbols: z.number().int(),
  languages: z.record(z.string(), z.number()).describe('Cataloged files per language'),
  indexed_at: z.string().optional(),
  git_head: z.string().optional(),
  failed_files: z.number().int(),
});

const listWorkspacesOperations: Operation[] = [
  defineOperation({
    name: 'list_workspaces',
    answersFrom: 'process',
    title: 'Workspaces',
    description:
      'The open workspaces: id and root, the catalog (state, files, symbols, languages, indexed_at, git ' +
      'HEAD, failed files) and each language server (state, pid, memory, restarts, progress). Servers ' +
      'start on the first question about their language. Use an id as `workspace`.',
    input: z.object({}),
    output: withMeta({
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
    }),
    annotations: READ_ONLY,
    repl: { command: 'workspaces', positional: [] },
    handler: async (_input, ctx) => {
      // one tool for the workspaces: the servers serving each, and what its catalog holds
      const catalogs = new Map(listRepos(ctx.gateway).map(({ workspace, root: _r, index_version: _v, ...c }) => [workspace, c]));
      const { workspaces } = listWorkspaces(ctx.gateway, ServiceCall.from(ctx));
      return {
        workspaces: workspaces.map((w) => ({ ...w, catalog: catalogs.get(w.id) ?? { state: 'empty', files: 0, symbols: 0, languages: {}, failed_files: 0 } })),
      };
    },
    markdown(r) {
      const out = ['## Workspaces', ''];
      for (const w of r.workspaces) {
        out.push(
          `- **${w.id}** — ${w.root}${w.languages.length ? ` (${w.languages.join(', ')})` : ''}: ${w.catalog.files} files, ${w.catalog.symbols} symbols, ${w.catalog.state}${w.catalog.indexed_at ? `, indexed ${w.catalog.indexed_at}` : ''}${w.catalog.git_head ? `, HEAD ${w.catalog.git_head.slice(0, 12)}` : ''}`,
        );
        for (const s of w.servers)
          out.push(
            `  - ${s.id} @ ${s.root}: ${s.state}${s.pid ? ` pid ${s.pid}` : ''}${s.rss_bytes !== undefined ? `, ${Math.round(s.rss_bytes / 1048576)} MiB` : ''}, generation ${s.generation}, crashes ${s.crashes}${s.progress.length ? `, ${s.progress.join('; ')}` : ''}`,
          );
        if (!w.servers.length) out.push('  - (no server started yet)');
        const derived = Object.entries(w.derived_bytes).filter(([, n]) => n > 0);
        if (derived.length) out.push(`  - derived: ${derived.map(([k, n]) => `${k} ${Math.ceil(n / 1024)} KiB`).join(', ')}`);
      }
      return out.join('\n') + '\n';
    },
  }),
];

const SessionStatusSchema = z.object({
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

const ClientStatusSchema = z.object({
  id: z.number().int(),
  frontend: z.string().describe('mcp | mcp-http | sidecar | repl | cli'),
  root: z.string().describe("The client's --root"),
  pid: z.number().int().optional(),
  attached_ms: z.number().int().describe('How long the client has been attached'),
  in_flight: z.number().int().describe("The client's requests running now (this call included)"),
});

export const daemonStatusOperation = defineOperation({
  name: 'daemon_status',
  answersFrom: 'process',
  title: 'Daemon status',
  description:
    'The shared lspgate daemon: pid, version, socket, uptime, idle exit, when unused servers stop, the ' +
    'memory budget, memory, attached clients and every language-server session (state, pid, memory). In ' +
    'a process of its own: `daemon: false` and its sessions.',
  related: { list_workspaces: 'for the workspaces this client sees' },
  input: z.object({}),
  output: withMeta({
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
  }),
  annotations: READ_ONLY,
  repl: { command: 'daemon', positional: [] },
  handler: async (_input, ctx) => ({ ...daemonStatusAnswer(ctx.env), total_tokens_saved: ctx.savedTokens().total }),
  markdown(r) {
    const mib = (n: number | undefined) => (n === undefined ? '' : `, ${Math.round(n / 1048576)} MiB`);
    const out = r.daemon
      ? [
          `## lspgate daemon ${r.version} (pid ${r.pid})`,
          '',
          `${r.socket}, up ${Math.round((r.uptime_ms ?? 0) / 1000)} s, idle exit ${r.idle_exit_ms} ms${mib(r.rss_bytes)}`,
          `servers stop after ${r.server_idle_ms ? `${r.server_idle_ms} ms unused` : 'never'}; memory budget ${r.memory_budget?.limit_bytes ? `${Math.round(r.memory_budget.limit_bytes / 1048576)} MiB (${r.memory_budget.source})` : 'none'}, servers use${mib(r.memory_budget?.servers_bytes) || ' ?'}`,
          '',
          `### ${r.clients?.length ?? 0} client(s)`,
        ]
      : ['## No daemon: sessions of this process', ''];
    for (const c of r.clients ?? [])
      out.push(`- #${c.id} ${c.frontend}${c.pid ? ` pid ${c.pid}` : ''} @ ${c.root}: attached ${Math.round(c.attached_ms / 1000)} s, ${c.in_flight} in flight`);
    out.push('', `### ${r.sessions.length} session(s)`);
    for (const s of r.sessions)
      out.push(
        `- ${s.server} @ ${s.root}: ${s.state}${s.pid ? ` pid ${s.pid}` : ''}${mib(s.rss_bytes)}, generation ${s.generation}, crashes ${s.crashes}, ${s.open_documents} open document(s)${s.note ? ` (${s.note})` : ''}`,
      );
    return out.join('\n') + '\n';
  },
});

export const workspaceOperations: Operation[] = [...listWorkspacesOperations, daemonStatusOperation];
