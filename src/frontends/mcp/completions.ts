/**
 * Values for `completion/complete`, asked of the gateway's own operations: symbol ids and names
 * (search_symbols over the catalog), file paths (get_file_tree), workspace ids (list_workspaces).
 * An unknown workspace or a failed lookup offers nothing: completion is a hint, never an answer.
 */
import type { SymbolRef } from '../../core/catalog.js';
import type { FrontendGateway } from '../host.js';

/** MCP caps a completion list at 100 values. */
export const MAX_COMPLETIONS = 100;

interface SymbolHit extends Pick<SymbolRef, 'symbol_id' | 'name' | 'qualified_name'> {
  scope?: 'module' | 'member' | 'local';
}
interface TreeNode {
  path: string;
  type: 'directory' | 'file';
  children?: TreeNode[];
}

async function results<T>(gateway: FrontendGateway, op: string, input: Record<string, unknown>): Promise<T | undefined> {
  try {
    return (await gateway.run(op, input)).result as T;
  } catch {
    return undefined;
  }
}

function workspaceInput(workspace: string | undefined): Record<string, unknown> {
  return workspace ? { workspace } : {};
}

async function symbols(gateway: FrontendGateway, prefix: string, workspace?: string): Promise<SymbolHit[]> {
  // search_symbols needs a query; with nothing typed yet there is nothing to rank by.
  if (prefix.trim() === '') return [];
  const r = await results<{ results: SymbolHit[] }>(gateway, 'search_symbols', { query: prefix, max_results: MAX_COMPLETIONS, ...workspaceInput(workspace) });
  // A variable inside a function body is no symbol anyone names from outside it: no completion.
  return (r?.results ?? []).filter((h) => h.scope !== 'local');
}

/** Symbol ids: what the prefix matches by name, and ids that start with the prefix (a path typed). */
export async function completeSymbolIds(gateway: FrontendGateway, value: string, workspace?: string): Promise<string[]> {
  const query = value.includes('::') ? value.slice(value.indexOf('::') + 2).replace(/#.*$/, '') : value.replace(/^.*\//, '');
  const hits = await symbols(gateway, query, workspace);
  return unique(hits.map((h) => h.symbol_id).filter((id) => !value.includes('/') || id.startsWith(value) || id.includes(value)));
}

/** Names and qualified names (`Router`, `Router.ServeHTTP`) starting with what was typed, best first. */
export async function completeSymbolNames(gateway: FrontendGateway, value: string, workspace?: string): Promise<string[]> {
  const hits = await symbols(gateway, value, workspace);
  const lower = value.toLowerCase();
  return unique(hits.flatMap((h) => [h.qualified_name, h.name]).filter((n) => n.toLowerCase().startsWith(lower)));
}

/** Cataloged file paths starting with what was typed. */
export async function completeFiles(gateway: FrontendGateway, value: string, workspace?: string): Promise<string[]> {
  const dir = value.includes('/') ? value.slice(0, value.lastIndexOf('/')) : '';
  const r = await results<{ tree: TreeNode }>(gateway, 'get_file_tree', { ...(dir ? { path_prefix: dir } : {}), depth: 20, ...workspaceInput(workspace) });
  const out: string[] = [];
  const walk = (n: TreeNode) => {
    if (n.type === 'file' && n.path.startsWith(value)) out.push(n.path);
    for (const c of n.children ?? []) walk(c);
  };
  if (r) walk(r.tree);
  return out.sort().slice(0, MAX_COMPLETIONS);
}

export async function completeWorkspaces(gateway: FrontendGateway, value: string): Promise<string[]> {
  const r = await results<{ workspaces: { id: string }[] }>(gateway, 'list_workspaces', {});
  return (r?.workspaces ?? []).map((w) => w.id).filter((id) => id.startsWith(value));
}

function unique(values: string[]): string[] {
  return [...new Set(values)].slice(0, MAX_COMPLETIONS);
}
