/**
 * MCP prompts for the common workflows, each expanded into the results of the operations it
 * needs (so the model starts with the facts, not with a plan to fetch them): explore a repository,
 * explain a symbol with its callers, assess the impact of changing a symbol, review the
 * working-tree change. Arguments complete from the catalog.
 */
import { completable, type GetPromptResult, type McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

import { runGit } from '../../util/git.js';
import type { FrontendGateway } from '../host.js';
import { completeSymbolNames, completeWorkspaces } from './completions.js';
import { protocolErrorOf } from './error-result.js';

/** A diff larger than this is cut (and says so): the prompt must fit a context window. */
const MAX_DIFF_BYTES = 64 * 1024;
/** Callers are gathered for at most this many changed symbols. */
const MAX_CHANGED_SYMBOLS = 5;

type Input = Record<string, unknown>;

function section(title: string, body: string): string {
  return `## ${title}\n\n${body.trim()}\n`;
}

function message(intro: string, sections: string[]): GetPromptResult {
  return { messages: [{ role: 'user', content: { type: 'text', text: [intro, ...sections].join('\n') } }] };
}

/** `symbol` is a name, or a symbol id when it has the `path::name#kind` form. */
function target(symbol: string): Input {
  return symbol.includes('::') ? { symbol_id: symbol } : { symbol };
}

function ws(workspace: string | undefined): Input {
  return workspace ? { workspace } : {};
}

type Run = (op: string, input: Input) => Promise<{ result: Record<string, unknown>; text: string }>;

/** `listed`: the tools the profile lists; a prompt's hint names no other. */
export function registerPrompts(server: McpServer, gateway: FrontendGateway, listed: (name: string) => boolean = () => true): void {
  const run: Run = async (op, input) => {
    try {
      return await gateway.run(op, { ...input, output_format: 'markdown' });
    } catch (e) {
      throw protocolErrorOf(e);
    }
  };
  const workspace = completable(z.string().optional().describe('Workspace id or root (default: the --root)'), (v) => completeWorkspaces(gateway, v ?? ''));
  const symbol = completable(z.string().min(1).describe('A name (`Router.ServeHTTP`) or a symbol id (`path::Name#kind`)'), (v, ctx) =>
    completeSymbolNames(gateway, v, ctx?.arguments?.workspace),
  );
  server.registerPrompt(
    'explore_repository',
    { title: 'Explore a repository', description: 'The repository outline and file tree, with how to dig further.', argsSchema: z.object({ workspace }) },
    (args) => exploreRepository(run, args.workspace, listed),
  );
  server.registerPrompt(
    'explain_symbol',
    { title: 'Explain a symbol', description: 'Its definition, source and callers.', argsSchema: z.object({ symbol, workspace }) },
    (args) => explainSymbol(run, args.symbol, args.workspace),
  );
  server.registerPrompt(
    'assess_impact',
    {
      title: 'Assess the impact of a change',
      description: 'Every reference and the transitive callers of a symbol.',
      argsSchema: z.object({ symbol, workspace }),
    },
    (args) => assessImpact(run, args.symbol, args.workspace),
  );
  server.registerPrompt(
    'review_change',
    {
      title: 'Review the working-tree change',
      description: 'The uncommitted diff, the symbols it changed, and their callers.',
      argsSchema: z.object({ workspace }),
    },
    (args) => reviewChange(run, args.workspace),
  );
}

/** The tools an explorer looks closer with. */
const LOOK_CLOSER = ['search_symbols', 'get_file_outline', 'get_symbol'];

async function exploreRepository(run: Run, workspace: string | undefined, listed: (name: string) => boolean): Promise<GetPromptResult> {
  const outline = await run('get_repo_outline', ws(workspace));
  const tree = await run('get_file_tree', { depth: 3, ...ws(workspace) });
  const tools = LOOK_CLOSER.filter(listed);
  const hint = tools.length ? ` Use ${tools.join(', ')} (lspgate tools) to look closer.` : '';
  return message('Explore this repository and explain its structure: the main packages, what each is for, and where to start reading.' + hint, [
    section('Repository outline', outline.text),
    section('File tree', tree.text),
  ]);
}

async function explainSymbol(run: Run, symbol: string, workspace: string | undefined): Promise<GetPromptResult> {
  const def = await run('find_definition', { ...target(symbol), ...ws(workspace) });
  const id = (def.result as unknown as { definitions: { symbol_id?: string }[] }).definitions[0]?.symbol_id;
  const source = id ? [section('Source', (await run('get_symbol', { symbol_id: id, ...ws(workspace) })).text)] : [];
  const callers = await run('find_callers', { ...target(symbol), depth: 2, ...ws(workspace) });
  return message(`Explain \`${symbol}\`: what it does, how its callers use it, and anything surprising.`, [
    section('Definition', def.text),
    ...source,
    section('Callers', callers.text),
  ]);
}

async function assessImpact(run: Run, symbol: string, workspace: string | undefined): Promise<GetPromptResult> {
  const refs = await run('find_references', { ...target(symbol), include_declaration: false, ...ws(workspace) });
  const callers = await run('find_callers', { ...target(symbol), depth: 3, ...ws(workspace) });
  return message(
    `Assess the impact of changing \`${symbol}\`: which code breaks or changes behaviour, which tests cover it, and what to check. ` +
      'The references and callers below come from the language server, not from text search.',
    [section('References', refs.text), section('Callers (3 levels)', callers.text)],
  );
}

async function reviewChange(run: Run, workspace: string | undefined): Promise<GetPromptResult> {
  const drift = await run('detect_drift', ws(workspace));
  const root = (drift.result as unknown as { _meta: { workspace: string } })._meta.workspace;
  const changed = drift.result as unknown as { modified: string[] };
  const callers: string[] = [];
  for (const id of changed.modified.slice(0, MAX_CHANGED_SYMBOLS)) {
    // A symbol without callers or a server that cannot say is no reason to fail the review.
    const c = await run('find_callers', { symbol_id: id, depth: 1, ...ws(workspace) }).catch(() => undefined);
    if (c) callers.push(c.text);
  }
  return message('Review this working-tree change: correctness, callers that need updating, missing tests. Be specific (file:line).', [
    section('Diff against HEAD', await gitDiff(root)),
    section('Symbols changed since the catalog was taken', drift.text),
    ...(callers.length ? [section('Callers of the modified symbols', callers.join('\n'))] : []),
  ]);
}

/** `git diff HEAD` of the workspace, cut to MAX_DIFF_BYTES; says so when there is no repository. */
async function gitDiff(root: string): Promise<string> {
  const r = await runGit(['diff', 'HEAD', '--no-color'], { cwd: root, timeout: 10_000, maxBuffer: 16 * MAX_DIFF_BYTES });
  if (r.exitCode !== 0) return `(no git diff: ${String(r.stderr).split('\n')[0] || 'git failed'})`;
  const out = String(r.stdout);
  if (out.trim() === '') return '(no uncommitted change against HEAD)';
  if (Buffer.byteLength(out) <= MAX_DIFF_BYTES) return '```diff\n' + out + '```';
  return '```diff\n' + Buffer.from(out).subarray(0, MAX_DIFF_BYTES).toString('utf8') + '\n```\n(diff cut at ' + MAX_DIFF_BYTES + ' bytes)';
}
