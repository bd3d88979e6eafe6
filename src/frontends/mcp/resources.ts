/**
 * MCP resources built on the operations: a file's outline (get_file_outline), a symbol's source by
 * id (get_symbol), a workspace's outline (get_repo_outline). Each is a URI template whose
 * variables complete from the catalog (completions.ts); the text is the operation's markdown.
 * Variables are percent-encoded in URIs (a symbol id holds `/`, `::` and `#`).
 */
import { type McpServer, type ReadResourceResult, ResourceNotFoundError, ResourceTemplate, UriTemplate, type Variables } from '@modelcontextprotocol/server';

import type { FrontendGateway } from '../host.js';
import { completeFiles, completeSymbolIds, completeWorkspaces } from './completions.js';
import { protocolErrorOf } from './error-result.js';

export const OUTLINE_TEMPLATE = 'lspgate://{workspace}/outline/{+file}';
export const SYMBOL_TEMPLATE = 'lspgate://{workspace}/symbol/{symbol_id}';
export const REPO_OUTLINE_TEMPLATE = 'lspgate://{workspace}/repo-outline';

export type LspgateResource =
  { kind: 'outline'; workspace: string; file: string } | { kind: 'symbol'; workspace: string; symbolId: string } | { kind: 'repo-outline'; workspace: string };

const templates = {
  outline: new UriTemplate(OUTLINE_TEMPLATE),
  symbol: new UriTemplate(SYMBOL_TEMPLATE),
  repo: new UriTemplate(REPO_OUTLINE_TEMPLATE),
};

export function outlineUri(workspace: string, file: string): string {
  return templates.outline.expand({ workspace, file });
}
export function symbolUri(workspace: string, symbolId: string): string {
  return templates.symbol.expand({ workspace, symbol_id: symbolId });
}
export function repoOutlineUri(workspace: string): string {
  return templates.repo.expand({ workspace });
}

function variable(v: Variables[string] | undefined): string {
  const one = Array.isArray(v) ? v.join(',') : (v ?? '');
  return decodeURIComponent(one);
}

/** Which lspgate resource a URI names, or undefined for any other URI. */
export function parseResourceUri(uri: string): LspgateResource | undefined {
  const repo = templates.repo.match(uri);
  if (repo) return { kind: 'repo-outline', workspace: variable(repo.workspace) };
  const sym = templates.symbol.match(uri);
  if (sym) return { kind: 'symbol', workspace: variable(sym.workspace), symbolId: variable(sym.symbol_id) };
  const out = templates.outline.match(uri);
  if (out) return { kind: 'outline', workspace: variable(out.workspace), file: variable(out.file) };
  return undefined;
}

/** The operation call behind a resource. */
function operationOf(r: LspgateResource): { op: string; input: Record<string, unknown> } {
  const workspace = { workspace: r.workspace };
  if (r.kind === 'outline') return { op: 'get_file_outline', input: { file: r.file, detail: 'full', ...workspace } };
  if (r.kind === 'symbol') return { op: 'get_symbol', input: { symbol_id: r.symbolId, ...workspace } };
  return { op: 'get_repo_outline', input: workspace };
}

export async function readResource(gateway: FrontendGateway, uri: string): Promise<ReadResourceResult> {
  const r = parseResourceUri(uri);
  if (!r) throw new ResourceNotFoundError(uri);
  const { op, input } = operationOf(r);
  // An outline is read for its symbol ids (what a symbol resource is named by): JSON, which keeps
  // them; the other two read best as the operation's markdown.
  const json = r.kind === 'outline';
  try {
    const { text } = await gateway.run(op, { ...input, output_format: json ? 'json' : 'markdown' });
    return { contents: [{ uri, mimeType: json ? 'application/json' : 'text/markdown', text }] };
  } catch (e) {
    throw protocolErrorOf(e, uri);
  }
}

export function registerResources(server: McpServer, gateway: FrontendGateway): void {
  const workspace = (value: string) => completeWorkspaces(gateway, value);
  const ws = (ctx?: { arguments?: Record<string, string> }) => ctx?.arguments?.workspace;
  const read = (uri: URL) => readResource(gateway, uri.href);
  server.registerResource(
    'file-outline',
    new ResourceTemplate(OUTLINE_TEMPLATE, { list: undefined, complete: { workspace, file: (v, ctx) => completeFiles(gateway, v, ws(ctx)) } }),
    {
      title: 'File outline',
      description: 'The hierarchical outline of one file, with symbol ids, signatures and line ranges (get_file_outline, as JSON).',
      mimeType: 'application/json',
    },
    read,
  );
  server.registerResource(
    'symbol-source',
    new ResourceTemplate(SYMBOL_TEMPLATE, { list: undefined, complete: { workspace, symbol_id: (v, ctx) => completeSymbolIds(gateway, v, ws(ctx)) } }),
    {
      title: 'Symbol source',
      description: 'The exact source of one symbol by its id `path::Qualified.name#kind`, percent-encoded (get_symbol).',
      mimeType: 'text/markdown',
    },
    read,
  );
  server.registerResource(
    'repo-outline',
    new ResourceTemplate(REPO_OUTLINE_TEMPLATE, {
      list: async () => {
        const { result } = await gateway.run('list_workspaces', {}).catch((e: unknown) => {
          throw protocolErrorOf(e);
        });
        const list = (result as unknown as { workspaces: { id: string; root: string }[] }).workspaces;
        return {
          resources: list.map((w) => ({ uri: repoOutlineUri(w.id), name: `${w.id} outline`, description: `Outline of ${w.root}`, mimeType: 'text/markdown' })),
        };
      },
      complete: { workspace },
    }),
    { title: 'Repository outline', description: 'Directories, languages and symbol kinds of a workspace (get_repo_outline).', mimeType: 'text/markdown' },
    read,
  );
}
