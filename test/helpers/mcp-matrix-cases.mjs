/**
 * The client matrix's calls: for every operation, one valid call and one call per error kind a
 * caller can cause, on a copy of fixtures/ts-app with a secret file, a text file and a tiny git
 * repository beside it (see makeMatrixWorkspace). Every operation also gets the two errors any
 * caller can cause anywhere: an unknown field (INVALID_INPUT) and an unopened workspace
 * (WORKSPACE_NOT_FOUND).
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Plain JavaScript so that scripts/python-client-matrix.sh can run the same table under Node.
const TS_APP = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/ts-app');

/** @typedef {{ tool: string, args: Record<string, unknown>, code?: string }} MatrixCall  code undefined = a success result */
/** @typedef {{ root: string, upstream: string, folder: string }} MatrixWorkspace  upstream: a git repository (index_repo); folder: for index_folder */

/** Under `dir`: `ws/` (ts-app + `.env` + `notes.txt`), `upstream/` (a one-commit git repo), `folder/`. */
/** @param {string} dir @returns {MatrixWorkspace} */
export function makeMatrixWorkspace(dir) {
  const root = path.join(dir, 'ws');
  cpSync(TS_APP, root, { recursive: true });
  writeFileSync(path.join(root, '.env'), 'TOKEN=never-returned\n');
  writeFileSync(path.join(root, 'notes.txt'), 'plain text, no language server\n');
  // tag_elements writes only here: a scratch file inside the copied workspace (names of its own,
  // so that no other call's symbol becomes ambiguous)
  mkdirSync(path.join(root, 'tag-scratch'));
  writeFileSync(path.join(root, 'tag-scratch/tagme.ts'), 'export function tagScratchOnly(): number {\n  return 1;\n}\n\nexport class TagScratchBox {}\n');
  const upstream = path.join(dir, 'upstream');
  mkdirSync(upstream);
  writeFileSync(path.join(upstream, 'README.md'), '# upstream\n');
  const git = (...args) => execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: upstream, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('add', '.');
  git('commit', '-q', '-m', 'one');
  // The workspace is a git repository too (changed_symbols diffs the working tree against HEAD).
  const gitWs = (...args) => execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: root, stdio: 'ignore' });
  gitWs('init', '-q', '-b', 'main');
  gitWs('add', '.');
  gitWs('commit', '-q', '-m', 'fixture');
  const folder = path.join(dir, 'folder');
  mkdirSync(folder);
  writeFileSync(path.join(folder, 'README.md'), '# a folder\n');
  return { root, upstream, folder };
}

/** @returns {MatrixCall[]} */
const SYMBOL_ERRORS = (tool, extra = {}) => [
  { tool, args: { symbol: 'noSuchSymbolAnywhere', ...extra }, code: 'SYMBOL_NOT_FOUND' },
  { tool, args: { symbol: 'describe', ...extra }, code: 'AMBIGUOUS_SYMBOL' },
  { tool, args: { file: 'src/missing.ts', line: 1, ...extra }, code: 'FILE_NOT_FOUND' },
  { tool, args: { file: '../../etc/passwd', line: 1, ...extra }, code: 'PATH_OUTSIDE_WORKSPACE' },
  { tool, args: { file: 'src/util/strings.ts', line: 9999, ...extra }, code: 'INVALID_INPUT' },
];

/** @param {MatrixWorkspace} ws @returns {MatrixCall[]} */
export function matrixCalls(ws) {
  /** @type {MatrixCall[]} */
  const perTool = [
    { tool: 'list_workspaces', args: {} },
    { tool: 'daemon_status', args: {} },
    { tool: 'list_repos', args: {} },
    { tool: 'get_repo_outline', args: {} },
    { tool: 'get_file_tree', args: { path_prefix: 'src' } },
    { tool: 'get_file_tree', args: { path_prefix: '../..' }, code: 'PATH_OUTSIDE_WORKSPACE' },
    { tool: 'get_file_outline', args: { file: 'src/util/strings.ts' } },
    { tool: 'get_file_outline', args: { file: 'src/missing.ts' }, code: 'FILE_NOT_FOUND' },
    { tool: 'get_file_outline', args: { file: '../../etc/passwd' }, code: 'PATH_OUTSIDE_WORKSPACE' },
    { tool: 'get_file_outline', args: { file: '.env' }, code: 'SECRET_FILE' },
    { tool: 'get_file_outline', args: { file: 'notes.txt' }, code: 'UNSUPPORTED_LANGUAGE' },
    { tool: 'open_at', args: { file: 'src/util/strings.ts', line: 7 } },
    { tool: 'open_at', args: { file: 'src/missing.ts', line: 1 }, code: 'FILE_NOT_FOUND' },
    { tool: 'open_at', args: { file: '../../etc/passwd', line: 1 }, code: 'PATH_OUTSIDE_WORKSPACE' },
    { tool: 'open_at', args: { file: '.env', line: 1 }, code: 'SECRET_FILE' },
    { tool: 'open_at', args: { file: 'src/util/strings.ts', line: 0 }, code: 'INVALID_INPUT' },
    { tool: 'find_definition', args: { symbol: 'formatName' } },
    ...SYMBOL_ERRORS('find_definition'),
    { tool: 'find_references', args: { symbol: 'formatName' } },
    ...SYMBOL_ERRORS('find_references'),
    { tool: 'find_callers', args: { symbol: 'formatName', depth: 2 } },
    ...SYMBOL_ERRORS('find_callers'),
    { tool: 'find_callees', args: { symbol: 'summarizeUsers' } },
    ...SYMBOL_ERRORS('find_callees'),
    { tool: 'get_context', args: { symbol: 'formatName', max_tokens: 1500 } },
    { tool: 'get_context', args: { symbol: 'formatName', max_tokens: 10 }, code: 'INVALID_INPUT' },
    ...SYMBOL_ERRORS('get_context'),
    { tool: 'find_type_definition', args: { type_name: 'User' } },
    { tool: 'find_type_definition', args: { type_name: 'NoSuchType' }, code: 'SYMBOL_NOT_FOUND' },
    { tool: 'get_function_details', args: { function_name: 'formatName' } },
    { tool: 'get_function_details', args: { function_name: 'noSuchFunction' }, code: 'SYMBOL_NOT_FOUND' },
    { tool: 'get_function_details', args: { function_name: 'describe' }, code: 'AMBIGUOUS_SYMBOL' },
    { tool: 'list_package_exports', args: { package: 'src/util/strings.ts' } },
    { tool: 'list_package_exports', args: { package: 'src/nowhere' }, code: 'SYMBOL_NOT_FOUND' },
    { tool: 'search_symbols', args: { query: 'format' } },
    { tool: 'search_symbols', args: { query: 'x', cursor: 'not-a-cursor' }, code: 'INVALID_INPUT' },
    { tool: 'search_text', args: { query: 'formatName' } },
    { tool: 'search_text', args: { query: '([', regex: true }, code: 'INVALID_INPUT' },
    { tool: 'get_symbol', args: { symbol_id: 'src/util/strings.ts::formatName#function' } },
    { tool: 'get_symbol', args: { symbol_id: 'src/util/strings.ts::nope#function' }, code: 'SYMBOL_NOT_FOUND' },
    { tool: 'get_symbols', args: { symbol_ids: ['src/util/strings.ts::formatName#function'] } },
    { tool: 'get_symbols', args: { symbol_ids: [] }, code: 'INVALID_INPUT' },
    { tool: 'detect_drift', args: {} },
    { tool: 'refresh', args: { paths: ['src/util/strings.ts'] } },
    { tool: 'index_folder', args: { path: ws.folder } },
    { tool: 'index_folder', args: { path: path.join(ws.folder, 'missing') }, code: 'FILE_NOT_FOUND' },
    { tool: 'index_repo', args: { url: ws.upstream } },
    { tool: 'index_repo', args: { url: '--upload-pack=touch /tmp/x' }, code: 'INVALID_INPUT' },
    { tool: 'index_repo', args: { url: path.join(ws.folder, 'no-such-repo') }, code: 'FILE_NOT_FOUND' },
    // What the servers know beyond navigation (issue 13).
    { tool: 'get_diagnostics', args: { file: 'src/util/strings.ts' } },
    { tool: 'get_diagnostics', args: { file: 'src/missing.ts' }, code: 'FILE_NOT_FOUND' },
    { tool: 'get_diagnostics', args: { file: '../../etc/passwd' }, code: 'PATH_OUTSIDE_WORKSPACE' },
    { tool: 'find_implementations', args: { symbol: 'Shape' } },
    ...SYMBOL_ERRORS('find_implementations'),
    { tool: 'type_hierarchy', args: { symbol: 'Circle', direction: 'supertypes' } },
    ...SYMBOL_ERRORS('type_hierarchy'),
    { tool: 'get_hover', args: { symbol: 'formatName' } },
    ...SYMBOL_ERRORS('get_hover'),
    { tool: 'signature_help', args: { file: 'src/services/report.ts', line: 15, column: 65 } },
    { tool: 'signature_help', args: { file: 'src/missing.ts', line: 1, column: 1 }, code: 'FILE_NOT_FOUND' },
    { tool: 'signature_help', args: { file: 'src/services/report.ts', line: 15, column: 0 }, code: 'INVALID_INPUT' },
    { tool: 'rename_symbol', args: { symbol: 'formatName', new_name: 'formatFullName' } },
    ...SYMBOL_ERRORS('rename_symbol', { new_name: 'renamed' }),
    { tool: 'code_actions', args: { file: 'src/util/strings.ts' } },
    { tool: 'code_actions', args: { file: 'src/missing.ts' }, code: 'FILE_NOT_FOUND' },
    // Relationships and analysis (issue 11).
    { tool: 'query_relationships', args: { query_type: 'calls-me', target: 'formatName' } },
    { tool: 'query_relationships', args: { query_type: 'calls-me', target: 'noSuchSymbolAnywhere' }, code: 'SYMBOL_NOT_FOUND' },
    { tool: 'query_relationships', args: { query_type: 'calls-me', target: 'describe' }, code: 'AMBIGUOUS_SYMBOL' },
    { tool: 'analyze_impact', args: { element: 'formatName' } },
    { tool: 'analyze_impact', args: { element: 'noSuchSymbolAnywhere' }, code: 'SYMBOL_NOT_FOUND' },
    { tool: 'changed_symbols', args: {} },
    { tool: 'changed_symbols', args: { base_ref: '--output=/tmp/x' }, code: 'INVALID_INPUT' },
    { tool: 'find_dead_code', args: {} },
    { tool: 'render_diagram', args: { target: 'formatName' } },
    { tool: 'render_diagram', args: { target: 'noSuchSymbolAnywhere' }, code: 'SYMBOL_NOT_FOUND' },
    { tool: 'find_patterns', args: { limit: 5 } },
    { tool: 'find_patterns', args: { limit: 0 }, code: 'INVALID_INPUT' },
    { tool: 'tag_elements', args: { path: 'src/util' } },
    { tool: 'tag_elements', args: { path: 'tag-scratch', dry_run: false } },
    { tool: 'tag_elements', args: { path: '../../etc', dry_run: false }, code: 'PATH_OUTSIDE_WORKSPACE' },
    { tool: 'tag_elements', args: { path: '.env', dry_run: false }, code: 'SECRET_FILE' },
    { tool: 'tag_elements', args: { path: 'src/missing.ts' }, code: 'FILE_NOT_FOUND' },
    { tool: 'analyze_complexity', args: { element: 'formatName' } },
    { tool: 'analyze_complexity', args: { element: 'noSuchSymbolAnywhere' }, code: 'SYMBOL_NOT_FOUND' },
    { tool: 'coverage_report', args: { format: 'detailed' } },
    { tool: 'coverage_report', args: { format: 'full' }, code: 'INVALID_INPUT' },
    { tool: 'project_context', args: { output_format: 'both' } },
    { tool: 'project_context', args: { max_elements: 0 }, code: 'INVALID_INPUT' },
    { tool: 'validate_references', args: { pattern: 'src/**/*.ts' } },
    { tool: 'validate_references', args: { pattern: '/etc/**' }, code: 'INVALID_INPUT' },
    // Code search with citations (issue 12).
    { tool: 'search_code', args: { query: 'format a display name' } },
    { tool: 'search_code', args: { query: 'format', limit: 0 }, code: 'INVALID_INPUT' },
    { tool: 'search', args: { query: 'format a display name' } },
    { tool: 'search', args: { query: 'format', limit: 0 }, code: 'INVALID_INPUT' },
    { tool: 'verify_citation', args: { citation: { file: 'src/util/strings.ts', start_line: 7, end_line: 9, commit_hash: '' }, content_sha256: '0'.repeat(64) } },
    { tool: 'verify_citation', args: { citation: { file: 'src/util/strings.ts', start_line: 9, end_line: 7, commit_hash: '' } }, code: 'INVALID_INPUT' },
    { tool: 'index_stats', args: {} },
  ];
  const valid = new Map([['invalidate_cache', {}]]);
  for (const c of perTool) if (c.code === undefined && !valid.has(c.tool)) valid.set(c.tool, c.args);
  // index_folder / index_repo open a new workspace: they take no `workspace` to look up.
  const opensWorkspace = new Set(['index_folder', 'index_repo']);
  const generic = [...valid].flatMap(([tool, args]) => [
    { tool, args: { ...args, bogus_field: 1 }, code: 'INVALID_INPUT' },
    ...(opensWorkspace.has(tool) ? [] : [{ tool, args: { ...args, workspace: path.join(ws.folder, 'not-open') }, code: 'WORKSPACE_NOT_FOUND' }]),
  ]);
  // invalidate_cache last: it drops the catalog the other calls read (the next call rebuilds it).
  return [...perTool, ...generic, { tool: 'invalidate_cache', args: {} }];
}
