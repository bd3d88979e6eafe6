/**
 * Contracts of the repository operations: their result schemas and types.
 */
import { z } from 'zod';

import { withMeta } from '../../schema/meta.js';
import { type TreeNode } from '../../service/workspace/repository.js';

export const FileErrorSchema = z.object({ file: z.string(), code: z.string(), message: z.string() });

export const CountsSchema = z.record(z.string(), z.number());

export const TiersSchema = z
  .object({
    syntax_ready: z.boolean().describe('The syntax pass is done: outlines, search_symbols, get_symbol, the repository structure and search_code answer'),
    syntax_files: z.number().int().describe('Files cataloged from their syntax trees (every file whose language has a grammar)'),
    server_files: z.number().int().describe("Files cataloged from a server's documentSymbol (a language with a server and no grammar)"),
    syntax_only: CountsSchema.describe(
      'Files whose language no server handles here, by why (NO_SERVER: none configured; ' +
        'SERVER_NOT_INSTALLED): semantic operations on them answer SERVER_NOT_INSTALLED',
    ),
    disagreement: z
      .object({
        files_sampled: z.number().int(),
        files_compared: z.number().int(),
        syntax_symbols: z.number().int(),
        server_symbols: z.number().int(),
        only_syntax: z.number().int(),
        only_server: z.number().int(),
        differing: z.number().int(),
        rate: z.number(),
      })
      .describe(
        "Background verification: a sample of files asked of their servers' documentSymbol while they are " +
          "idle, compared with the catalog's entries of the same bytes — symbols only one side lists, or lists " +
          'with another range or kind; rate over the server symbols. The catalog stays as parsed: nothing here ' +
          'changes an id',
      ),
  })
  .describe('Where the catalog comes from: syntax trees, with a sample verified against the language servers');

export const IndexResultShape = {
  workspace: z.string().describe('Workspace id: pass it as `workspace` to every other operation'),
  root: z.string(),
  state: z.enum(['empty', 'building', 'ready', 'partial']),
  empty_reason: z.string().optional().describe('With state empty after a build: why nothing was cataloged (what the walk left out, per reason)'),
  files: z.number().int(),
  symbols: z.number().int(),
  languages: CountsSchema.describe('Files per language'),
  skipped: CountsSchema.describe('Files and directories left out, per reason (skip_pattern, gitignore, secret, binary, too_large, ...)'),
  errors: z.array(FileErrorSchema).describe('Files that could not be cataloged, with the error code'),
  duration_ms: z.number(),
  git_head: z.string().optional(),
  tiers: TiersSchema.optional(),
};

export const RepoEntrySchema = z.object({
  workspace: z.string(),
  root: z.string(),
  state: z.string(),
  empty_reason: z.string().optional(),
  files: z.number().int(),
  symbols: z.number().int(),
  languages: CountsSchema,
  indexed_at: z.string().optional(),
  git_head: z.string().optional(),
  index_version: z.number().int(),
  failed_files: z.number().int(),
  failed: z.string().optional().describe('Why files failed (codes and counts, the first files): the workspace is `partial`'),
  tiers: TiersSchema.optional(),
});

export type { TreeNode };

export const TreeNodeSchema: z.ZodType<TreeNode> = z.lazy(() =>
  z.object({
    name: z.string(),
    path: z.string(),
    type: z.enum(['directory', 'file']),
    language: z.string().optional(),
    symbols: z.number().int().optional(),
    files: z.number().int().optional(),
    children: z.array(TreeNodeSchema).optional(),
  }),
);

export type IndexResult = z.infer<ReturnType<typeof withMeta<typeof IndexResultShape>>>;

export const IndexFolderOutput = withMeta(IndexResultShape);
export type IndexFolderResult = z.infer<typeof IndexFolderOutput>;

export const IndexRepoOutput = withMeta({ ...IndexResultShape, url: z.string(), clone_path: z.string() });
export type IndexRepoResult = z.infer<typeof IndexRepoOutput>;

export const ListReposOutput = withMeta({ repos: z.array(RepoEntrySchema) });
export type ListReposResult = z.infer<typeof ListReposOutput>;

export const InvalidateCacheOutput = withMeta({ workspace: z.string(), root: z.string(), invalidated: z.boolean() });
export type InvalidateCacheResult = z.infer<typeof InvalidateCacheOutput>;

export const RefreshOutput = withMeta({ refreshed: z.array(z.string()), duration_ms: z.number(), errors: z.array(FileErrorSchema) });
export type RefreshResult = z.infer<typeof RefreshOutput>;

export const GetRepoOutlineOutput = withMeta({
  files: z.number().int(),
  symbols: z.number().int(),
  directories: z.array(z.object({ path: z.string(), files: z.number().int(), symbols: z.number().int() })),
  languages: CountsSchema,
  symbol_kinds: CountsSchema,
});
export type GetRepoOutlineResult = z.infer<typeof GetRepoOutlineOutput>;

export const GetFileTreeOutput = withMeta({ tree: TreeNodeSchema });
export type GetFileTreeResult = z.infer<typeof GetFileTreeOutput>;

export const DetectDriftOutput = withMeta({
  since: z.string().optional().describe('When the reference state was taken'),
  added: z.array(z.string()),
  removed: z.array(z.string()),
  modified: z.array(z.string()),
  success: z.boolean(),
  drift_report: z.object({
    added_elements: z.number().int(),
    removed_elements: z.number().int(),
    modified_elements: z.number().int(),
    details: z.array(
      z.object({
        element: z.string().describe('Qualified name'),
        change_type: z.enum(['added', 'removed', 'modified']),
        file: z.string(),
        symbol_id: z.string(),
      }),
    ),
  }),
});
export type DetectDriftResult = z.infer<typeof DetectDriftOutput>;
