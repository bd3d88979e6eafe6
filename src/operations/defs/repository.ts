/**
 * Repository intelligence: opening workspaces (index_folder, index_repo), listing and
 * invalidating them, refresh, structure (get_repo_outline, get_file_tree) and detect_drift.
 * Symbol retrieval and search live in search.ts. Handlers are thin: service/repository.ts answers.
 */

import { z } from 'zod';

import { decodeCursor, paginate, queryHash } from '../../core/paging.js';
import { ServiceCall } from '../../service/call.js';
import {
  cloneAndOpen,
  driftOf,
  fileTreeOf,
  indexWorkspace,
  listRepos as listRepoEntries,
  openFolder,
  refreshWorkspace,
  repoOutlineOf,
} from '../../service/workspace/repository.js';
import { DROPS_STATE, FETCHES, READ_ONLY, UPDATES_INDEX } from '../annotations.js';
import {
  DetectDriftOutput,
  GetFileTreeOutput,
  GetRepoOutlineOutput,
  IndexFolderOutput,
  IndexRepoOutput,
  InvalidateCacheOutput,
  ListReposOutput,
  RefreshOutput,
} from '../contracts/repository.js';
import { detectDriftMarkdown, getFileTreeMarkdown, getRepoOutlineMarkdown, indexMarkdown, listReposMarkdown } from '../render/repository.js';
import { defineOperation, type Operation } from '../types.js';

const ExtraIgnore = z.array(z.string().max(500)).max(200);

export const indexFolder = defineOperation({
  name: 'index_folder',
  title: 'Index a local folder',
  description:
    'Open a local folder as a workspace and catalog its symbols from the language servers. Files are ' +
    'filtered first (.gitignore, skip patterns, secrets, binary and oversized files, counted in ' +
    '`skipped`). Returns the workspace id for `workspace`; running it again reuses unchanged files. Only ' +
    "folders inside the served root, the configured allowedRoots or lspgate's clones (else " +
    'PATH_OUTSIDE_WORKSPACE).',
  input: z.object({
    path: z.string().min(1).max(4096).describe('Folder to open (absolute, or relative to the default root)'),
    extra_ignore_patterns: ExtraIgnore.optional().describe('More .gitignore-style patterns to leave out'),
    follow_symlinks: z.boolean().optional().describe('Follow symlinks that stay inside the folder (default false)'),
  }),
  output: IndexFolderOutput,
  annotations: UPDATES_INDEX,
  repl: { command: 'index', positional: ['path'] },
  callerErrors: ['FILE_NOT_FOUND'],
  opensWorkspace: true,
  async handler(input, ctx) {
    const ws = await openFolder(ctx.gateway, input.path);
    return indexWorkspace(ws, ServiceCall.from(ctx), { extraIgnore: input.extra_ignore_patterns, followSymlinks: input.follow_symlinks }, ctx.progress);
  },
  markdown: indexMarkdown,
});

export const indexRepo = defineOperation({
  name: 'index_repo',
  title: 'Clone and index a git repository',
  description:
    'Clone a git repository (https://, ssh://, user@host:path, file:// or an allowed local path) into ' +
    "lspgate's cache, shallow when possible, and catalog it as a workspace. `ref`: a branch, tag or " +
    'commit. Returns the workspace id.',
  input: z.object({
    url: z.string().min(1).max(2000).describe('Repository URL or local path'),
    ref: z.string().max(200).optional().describe('Branch, tag or commit (default: the remote HEAD)'),
    extra_ignore_patterns: ExtraIgnore.optional(),
  }),
  output: IndexRepoOutput,
  annotations: FETCHES,
  repl: { command: 'clone', positional: ['url', 'ref'] },
  callerErrors: ['FILE_NOT_FOUND'],
  opensWorkspace: true,
  async handler(input, ctx) {
    const call = ServiceCall.from(ctx);
    const { ws, dir, head } = await cloneAndOpen(ctx.gateway, call, input.url, input.ref);
    const r = await indexWorkspace(ws, call, { extraIgnore: input.extra_ignore_patterns }, ctx.progress, head);
    return { ...r, url: input.url, clone_path: dir };
  },
  markdown: (r) => indexMarkdown(r) + `cloned from ${r.url} into ${r.clone_path}\n`,
});

export const listRepos = defineOperation({
  name: 'list_repos',
  title: 'List indexed workspaces',
  description: 'Every open workspace with its catalog: files, symbols, languages, when it was indexed, git HEAD, index version (the repository-listing shape).',
  related: { list_workspaces: 'for the same workspaces with their language servers' },
  input: z.object({}),
  output: ListReposOutput,
  annotations: READ_ONLY,
  repl: { command: 'repos', positional: [] },
  // what list_workspaces answers too: listed only when asked for by name
  profile: 'name',
  async handler(_input, ctx) {
    return { repos: listRepoEntries(ctx.gateway) };
  },
  markdown: listReposMarkdown,
});

export const invalidateCache = defineOperation({
  name: 'invalidate_cache',
  answersFrom: 'process',
  title: 'Drop a workspace catalog',
  description:
    "Delete the workspace's catalog, in memory and on disk; the next call that needs it rebuilds it from " +
    'the language servers. For a catalog that seems wrong: edits are picked up without it.',
  input: z.object({}),
  output: InvalidateCacheOutput,
  annotations: DROPS_STATE,
  repl: { command: 'invalidate', positional: [] },
  async handler(_input, ctx) {
    await ctx.workspace.catalog.invalidate();
    return { workspace: ctx.workspace.id, root: ctx.workspace.root, invalidated: true };
  },
});

export const refresh = defineOperation({
  name: 'refresh',
  title: 'Re-sync changed files',
  description:
    'Re-catalog files now: `paths`, or every file changed, added or deleted since it was cataloged. ' +
    'Edits are picked up anyway (a watcher, and a check on every answer); use it after bulk changes such ' +
    'as a checkout, to pay the cost once.',
  input: z.object({ paths: z.array(z.string().max(4096)).max(1000).optional().describe('Workspace-relative files') }),
  output: RefreshOutput,
  annotations: UPDATES_INDEX,
  repl: { command: 'refresh', positional: [] },
  handler: (input, ctx) => refreshWorkspace(ServiceCall.from(ctx), input.paths),
});

export const getRepoOutline = defineOperation({
  name: 'get_repo_outline',
  title: 'Repository outline',
  description: 'A map of the workspace: directories with file and symbol counts, files per language, symbols per kind. Start here in an unfamiliar repository.',
  related: { get_file_tree: 'for every file', search_symbols: 'to find a declaration by name', get_file_outline: 'for the symbols of one file' },
  input: z.object({ depth: z.number().int().min(1).max(10).optional().describe('Directory depth to group by (default 2)') }),
  output: GetRepoOutlineOutput,
  annotations: READ_ONLY,
  repl: { command: 'repo', positional: [] },
  profile: 'core',
  handler: (input, ctx) => repoOutlineOf(ServiceCall.from(ctx), input.depth ?? 2),
  markdown: getRepoOutlineMarkdown,
});

export const getFileTree = defineOperation({
  name: 'get_file_tree',
  title: 'File tree',
  description:
    "The cataloged files as a tree: each file's language and symbol count, each directory's totals. " +
    '`path_prefix` narrows to a directory; `depth` limits nesting (deeper files are counted, not listed).',
  input: z.object({
    path_prefix: z.string().max(4096).optional().describe('Directory to start from, workspace-relative'),
    depth: z.number().int().min(1).max(20).optional().describe('Levels to list (default 4)'),
  }),
  output: GetFileTreeOutput,
  annotations: READ_ONLY,
  repl: { command: 'tree', positional: ['path_prefix'] },
  callerErrors: ['PATH_OUTSIDE_WORKSPACE'],
  handler: (input, ctx) => fileTreeOf(ServiceCall.from(ctx), input.path_prefix, input.depth ?? 4),
  markdown: getFileTreeMarkdown,
});

export const detectDrift = defineOperation({
  name: 'detect_drift',
  title: 'Symbols changed since indexing',
  description:
    "Symbols added, removed and modified (by content hash) since the catalog's reference state (when it " +
    'was loaded or last reset); changed files are re-cataloged on the way. `reset: true` makes now the ' +
    'reference. Also in the DriftOutput shape: `success` and `drift_report` with counts and `details` ' +
    '(paged by max_results / cursor; page without `reset`).',
  input: z.object({
    reset: z.boolean().optional().describe('After reporting, take the current state as the new reference'),
    max_results: z.number().int().min(1).max(5000).optional().describe('drift_report.details per page (default 500; the counts cover all)'),
    cursor: z.string().max(1000).optional(),
  }),
  output: DetectDriftOutput,
  annotations: DROPS_STATE,
  repl: { command: 'drift', positional: [] },
  handler: async (input, ctx) => {
    const hash = queryHash(['detect_drift']);
    const offset = decodeCursor(input.cursor, hash);
    const r = await driftOf(ServiceCall.from(ctx), input.reset ?? false);
    const details = paginate(r.drift_report.details, { offset, maxResults: input.max_results ?? 500, hash, meta: ctx.meta });
    return { ...r, drift_report: { ...r.drift_report, details } };
  },
  markdown: detectDriftMarkdown,
});

export const repositoryOperations: Operation[] = [indexFolder, indexRepo, listRepos, invalidateCache, refresh, getRepoOutline, getFileTree, detectDrift];
