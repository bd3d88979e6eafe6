/**
 * list_workspaces: open workspaces and the state of each language server serving them.
 */
import { z } from 'zod';
import { withMeta } from '../../schema/meta.js';
import { ServiceCall } from '../../service/call.js';
import { listWorkspaces } from '../../service/workspace-info.js';
import { defineOperation, type Operation } from '../types.js';

const ServerSchema = z.object({
  id: z.string(),
  root: z.string(),
  state: z.string().describe('idle | starting | indexing | ready | crashed | failed | stopping | stopped | evicted (shut down under the memory budget; the next request starts it again)'),
  pid: z.number().int().optional(),
  rss_bytes: z.number().int().optional().describe("Resident memory of the server's whole process tree (for evicted: when it was shut down)"),
  generation: z.number().int().describe('1 for the first process, +1 per restart'),
  crashes: z.number().int(),
  progress: z.array(z.string()).describe('Open $/progress titles (indexing)'),
});

export const workspaceOperations: Operation[] = [
  defineOperation({
    name: 'list_workspaces',
    title: 'Workspaces',
    description:
      'Open workspaces (id, root) with the languages and language servers serving them: state (indexing / ready / crashed / failed / evicted), pid, memory (RSS of the process tree), restart generation, crash count and open progress. Servers start lazily, on the first question about a file of their language. Use the id as `workspace` in other calls.',
    input: z.object({}),
    output: withMeta({
      workspaces: z.array(z.object({ id: z.string(), root: z.string(), languages: z.array(z.string()), servers: z.array(ServerSchema) })),
    }),
    annotations: { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false },
    repl: { command: 'workspaces', positional: [] },
    handler: async (_input, ctx) => listWorkspaces(ctx.gateway, ServiceCall.from(ctx)),
    markdown(r) {
      const out = ['## Workspaces', ''];
      for (const w of r.workspaces) {
        out.push(`- **${w.id}** — ${w.root}${w.languages.length ? ` (${w.languages.join(', ')})` : ''}`);
        for (const s of w.servers) out.push(`  - ${s.id} @ ${s.root}: ${s.state}${s.pid ? ` pid ${s.pid}` : ''}${s.rss_bytes !== undefined ? `, ${Math.round(s.rss_bytes / 1048576)} MiB` : ''}, generation ${s.generation}, crashes ${s.crashes}${s.progress.length ? `, ${s.progress.join('; ')}` : ''}`);
        if (!w.servers.length) out.push('  - (no server started yet)');
      }
      return out.join('\n') + '\n';
    },
  }),
];
