/**
 * list_workspaces: open workspaces and the state of each language server serving them.
 */
import { z } from 'zod';

import { ServiceCall } from '../../service/call.js';
import { daemonStatusAnswer } from '../../service/workspace/daemon-status.js';
import { listRepos } from '../../service/workspace/repository.js';
import { listWorkspaces } from '../../service/workspace/workspace-info.js';
import { READ_ONLY } from '../annotations.js';
import { DaemonStatusOutput, ListWorkspacesOutput } from '../contracts/workspaces.js';
import { daemonStatusMarkdown, listWorkspacesMarkdown } from '../render/workspaces.js';
import { defineOperation, type Operation } from '../types.js';

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
    output: ListWorkspacesOutput,
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
    markdown: listWorkspacesMarkdown,
  }),
];

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
  output: DaemonStatusOutput,
  annotations: READ_ONLY,
  repl: { command: 'daemon', positional: [] },
  handler: async (_input, ctx) => ({ ...daemonStatusAnswer(ctx.env), total_tokens_saved: ctx.savedTokens().total }),
  markdown: daemonStatusMarkdown,
});

export const workspaceOperations: Operation[] = [...listWorkspacesOperations, daemonStatusOperation];
