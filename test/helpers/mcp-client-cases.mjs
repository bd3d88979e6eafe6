/**
 * The MCP client matrix: every call the 1.x and 2.x TypeScript SDK clients and the Python SDK make
 * (test/integration/mcp-client-matrix.test.ts, scripts/python-client-matrix.sh), on the workspace of
 * mcp-matrix-cases.mjs (a copy of fixtures/ts-app with a secret file, a text file and a tiny git
 * repository beside it). Each operation has its cases here: `ok` calls succeed with structured content,
 * `errors` fail with their code, `last` runs after every other call (it drops what the others read).
 * Besides its own cases, every operation gets the two errors any caller can cause anywhere: an unknown
 * field and, unless it opens a workspace, an unopened workspace. Plain JavaScript so that the Python
 * matrix's script can build the same table under Node.
 */
import path from 'node:path';

/** @typedef {{ root: string, upstream: string, folder: string }} CaseWorkspace */
/** @typedef {{ args: Record<string, unknown>, code: string }} ErrorCall */
/** @typedef {{ ok: Record<string, unknown>[], errors?: ErrorCall[], last?: boolean }} ClientCases */
/** @typedef {{ tool: string, args: Record<string, unknown>, code?: string }} ClientCall */

/**
 * What a caller can get wrong naming a symbol in the matrix workspace (fixtures/ts-app).
 * @param {Record<string, unknown>} [extra]
 * @returns {ErrorCall[]}
 */
export function symbolErrorCases(extra = {}) {
  return [
    { args: { symbol: 'noSuchSymbolAnywhere', ...extra }, code: 'SYMBOL_NOT_FOUND' },
    // ts-app declares `describe` on several classes with no leader among them
    { args: { symbol: 'describe', ...extra }, code: 'AMBIGUOUS_SYMBOL' },
    { args: { file: 'src/missing.ts', line: 1, ...extra }, code: 'FILE_NOT_FOUND' },
    { args: { file: '../../etc/passwd', line: 1, ...extra }, code: 'PATH_OUTSIDE_WORKSPACE' },
    { args: { file: 'src/util/strings.ts', line: 9999, ...extra }, code: 'INVALID_INPUT' },
  ];
}

/** @type {Record<string, ClientCases | ((ws: CaseWorkspace) => ClientCases)>} */
export const CLIENT_CASES = {
  find_dead_code: { ok: [{}] },
  render_diagram: { ok: [{ target: 'formatName' }], errors: [{ args: { target: 'noSuchSymbolAnywhere' }, code: 'SYMBOL_NOT_FOUND' }] },
  analyze_complexity: { ok: [{ element: 'formatName' }], errors: [{ args: { element: 'noSuchSymbolAnywhere' }, code: 'SYMBOL_NOT_FOUND' }] },
  find_patterns: { ok: [{ limit: 5 }], errors: [{ args: { limit: 0 }, code: 'INVALID_INPUT' }] },
  search_code: { ok: [{ query: 'format a display name' }], errors: [{ args: { query: 'format', limit: 0 }, code: 'INVALID_INPUT' }] },
  search: { ok: [{ query: 'format a display name' }], errors: [{ args: { query: 'format', limit: 0 }, code: 'INVALID_INPUT' }] },
  verify_citation: {
    ok: [{ citation: { file: 'src/util/strings.ts', start_line: 7, end_line: 9, commit_hash: '' }, content_sha256: '0'.repeat(64) }],
    errors: [{ args: { citation: { file: 'src/util/strings.ts', start_line: 9, end_line: 7, commit_hash: '' } }, code: 'INVALID_INPUT' }],
  },
  index_stats: { ok: [{}] },
  get_context: {
    ok: [{ symbol: 'formatName', max_tokens: 1500 }],
    errors: [{ args: { symbol: 'formatName', max_tokens: 10 }, code: 'INVALID_INPUT' }, ...symbolErrorCases()],
  },
  find_type_definition: { ok: [{ type_name: 'User' }], errors: [{ args: { type_name: 'NoSuchType' }, code: 'SYMBOL_NOT_FOUND' }] },
  get_function_details: {
    ok: [{ function_name: 'formatName' }],
    errors: [
      { args: { function_name: 'noSuchFunction' }, code: 'SYMBOL_NOT_FOUND' },
      { args: { function_name: 'describe' }, code: 'AMBIGUOUS_SYMBOL' },
    ],
  },
  list_package_exports: { ok: [{ package: 'src/util/strings.ts' }], errors: [{ args: { package: 'src/nowhere' }, code: 'SYMBOL_NOT_FOUND' }] },
  get_file_outline: {
    ok: [{ file: 'src/util/strings.ts' }],
    errors: [
      { args: { file: 'src/missing.ts' }, code: 'FILE_NOT_FOUND' },
      { args: { file: '../../etc/passwd' }, code: 'PATH_OUTSIDE_WORKSPACE' },
      { args: { file: '.env' }, code: 'SECRET_FILE' },
      { args: { file: 'notes.txt' }, code: 'UNSUPPORTED_LANGUAGE' },
    ],
  },
  move_file: {
    ok: [{ file: 'src/util/strings.ts', to: 'src/util/text.ts' }],
    errors: [
      { args: { file: 'src/util/strings.ts', to: 'src/util/math.ts' }, code: 'INVALID_INPUT' },
      { args: { file: 'src/util/strings.ts', to: '../outside.ts' }, code: 'PATH_OUTSIDE_WORKSPACE' },
      { args: { file: 'src/missing.ts', to: 'src/other.ts' }, code: 'FILE_NOT_FOUND' },
    ],
  },
  find_definition: {
    // several classes of ts-app declare `describe`: the tie is answered, unless strict
    ok: [{ symbol: 'formatName' }, { symbol: 'describe' }],
    errors: [...symbolErrorCases().filter((c) => c.code !== 'AMBIGUOUS_SYMBOL'), { args: { symbol: 'describe', strict: true }, code: 'AMBIGUOUS_SYMBOL' }],
  },
  find_references: { ok: [{ symbol: 'formatName' }], errors: symbolErrorCases() },
  find_callers: { ok: [{ symbol: 'formatName', depth: 2 }], errors: symbolErrorCases() },
  find_callees: { ok: [{ symbol: 'summarizeUsers' }], errors: symbolErrorCases() },
  open_at: {
    ok: [{ file: 'src/util/strings.ts', line: 7 }],
    errors: [
      { args: { file: 'src/missing.ts', line: 1 }, code: 'FILE_NOT_FOUND' },
      { args: { file: '../../etc/passwd', line: 1 }, code: 'PATH_OUTSIDE_WORKSPACE' },
      { args: { file: '.env', line: 1 }, code: 'SECRET_FILE' },
      { args: { file: 'src/util/strings.ts', line: 0 }, code: 'INVALID_INPUT' },
    ],
  },
  coverage_report: { ok: [{ format: 'detailed' }], errors: [{ args: { format: 'full' }, code: 'INVALID_INPUT' }] },
  project_context: { ok: [{ output_format: 'both' }], errors: [{ args: { max_elements: 0 }, code: 'INVALID_INPUT' }] },
  validate_references: { ok: [{ pattern: 'src/**/*.ts' }], errors: [{ args: { pattern: '/etc/**' }, code: 'INVALID_INPUT' }] },
  query_relationships: {
    ok: [{ query_type: 'calls-me', target: 'formatName' }],
    errors: [
      { args: { query_type: 'calls-me', target: 'noSuchSymbolAnywhere' }, code: 'SYMBOL_NOT_FOUND' },
      { args: { query_type: 'calls-me', target: 'describe' }, code: 'AMBIGUOUS_SYMBOL' },
    ],
  },
  analyze_impact: { ok: [{ element: 'formatName' }], errors: [{ args: { element: 'noSuchSymbolAnywhere' }, code: 'SYMBOL_NOT_FOUND' }] },
  changed_symbols: { ok: [{}], errors: [{ args: { base_ref: '--output=/tmp/x' }, code: 'INVALID_INPUT' }] },
  index_folder: (ws) => ({
    ok: [{ path: ws.folder }],
    errors: [{ args: { path: path.join(ws.folder, 'missing') }, code: 'FILE_NOT_FOUND' }],
  }),
  index_repo: (ws) => ({
    ok: [{ url: ws.upstream }],
    errors: [
      { args: { url: '--upload-pack=touch /tmp/x' }, code: 'INVALID_INPUT' },
      { args: { url: path.join(ws.folder, 'no-such-repo') }, code: 'FILE_NOT_FOUND' },
    ],
  }),
  list_repos: { ok: [{}] },
  invalidate_cache: { ok: [{}], last: true },
  refresh: { ok: [{ paths: ['src/util/strings.ts'] }] },
  get_repo_outline: { ok: [{}] },
  get_file_tree: { ok: [{ path_prefix: 'src' }], errors: [{ args: { path_prefix: '../..' }, code: 'PATH_OUTSIDE_WORKSPACE' }] },
  detect_drift: { ok: [{}] },
  get_symbol: {
    ok: [{ symbol_id: 'src/util/strings.ts::formatName#function' }, { symbol: 'formatName' }, { file: 'src/util/strings.ts', line: 8 }],
    errors: [{ args: { symbol_id: 'src/util/strings.ts::nope#function' }, code: 'SYMBOL_NOT_FOUND' }, ...symbolErrorCases()],
  },
  get_symbols: {
    ok: [{ symbol_ids: ['src/util/strings.ts::formatName#function'] }, { symbols: ['formatName', 'src/util/strings.ts::formatName#function', 'describe'] }],
    errors: [
      { args: { symbol_ids: [] }, code: 'INVALID_INPUT' },
      { args: {}, code: 'INVALID_INPUT' },
    ],
  },
  search_symbols: { ok: [{ query: 'format' }], errors: [{ args: { query: 'x', cursor: 'not-a-cursor' }, code: 'INVALID_INPUT' }] },
  search_text: { ok: [{ query: 'formatName' }], errors: [{ args: { query: '([', regex: true }, code: 'INVALID_INPUT' }] },
  get_diagnostics: {
    ok: [{ file: 'src/util/strings.ts' }],
    errors: [
      { args: { file: 'src/missing.ts' }, code: 'FILE_NOT_FOUND' },
      { args: { file: '../../etc/passwd' }, code: 'PATH_OUTSIDE_WORKSPACE' },
    ],
  },
  find_implementations: { ok: [{ symbol: 'Shape' }], errors: symbolErrorCases() },
  type_hierarchy: { ok: [{ symbol: 'Circle', direction: 'supertypes' }], errors: symbolErrorCases() },
  get_hover: { ok: [{ symbol: 'formatName' }], errors: symbolErrorCases() },
  signature_help: {
    ok: [{ file: 'src/services/report.ts', line: 15, column: 65 }],
    errors: [
      { args: { file: 'src/missing.ts', line: 1, column: 1 }, code: 'FILE_NOT_FOUND' },
      { args: { file: 'src/services/report.ts', line: 15, column: 0 }, code: 'INVALID_INPUT' },
    ],
  },
  rename_symbol: { ok: [{ symbol: 'formatName', new_name: 'formatFullName' }], errors: symbolErrorCases({ new_name: 'renamed' }) },
  code_actions: { ok: [{ file: 'src/util/strings.ts' }], errors: [{ args: { file: 'src/missing.ts' }, code: 'FILE_NOT_FOUND' }] },
  undo: { ok: [{}], last: true },
  tag_elements: {
    // writes only in tag-scratch/, a file of its own in the matrix workspace (no other call's names)
    ok: [{ path: 'src/util' }, { path: 'tag-scratch', dry_run: false }],
    errors: [
      { args: { path: '../../etc', dry_run: false }, code: 'PATH_OUTSIDE_WORKSPACE' },
      { args: { path: '.env', dry_run: false }, code: 'SECRET_FILE' },
      { args: { path: 'src/missing.ts' }, code: 'FILE_NOT_FOUND' },
    ],
  },
  list_workspaces: { ok: [{}] },
  daemon_status: { ok: [{}] },
  replace_symbol_body: {
    ok: [{ symbol: 'capitalize', body: 'export function capitalize(word: string): string {\n  return word.toUpperCase();\n}' }],
    errors: symbolErrorCases({ body: 'x' }),
  },
  insert_before_symbol: {
    ok: [{ symbol: 'capitalize', body: 'export function lower(word: string): string {\n  return word.toLowerCase();\n}' }],
    errors: symbolErrorCases({ body: 'x' }),
  },
  insert_after_symbol: {
    ok: [{ symbol: 'capitalize', body: 'export function lower(word: string): string {\n  return word.toLowerCase();\n}' }],
    errors: symbolErrorCases({ body: 'x' }),
  },
  delete_symbol: { ok: [{ symbol: 'padLeft', force: true }], errors: symbolErrorCases({}) },
};

/**
 * One operation's cases on `ws`.
 * @param {string} name
 * @param {CaseWorkspace} ws
 * @returns {ClientCases}
 */
export function casesOf(name, ws) {
  const c = CLIENT_CASES[name];
  if (c === undefined) throw new Error(`${name}: no client cases (test/helpers/mcp-client-cases.mjs)`);
  return typeof c === 'function' ? c(ws) : c;
}

/**
 * Every call of the matrix, in table order; the operations marked `last` at the very end.
 * @param {readonly { name: string, opensWorkspace?: boolean }[]} ops
 * @param {CaseWorkspace} ws
 * @returns {ClientCall[]}
 */
export function clientMatrix(ops, ws) {
  /** @type {ClientCall[]} */ const own = [];
  /** @type {ClientCall[]} */ const generic = [];
  /** @type {ClientCall[]} */ const last = [];
  for (const op of ops) {
    const cases = casesOf(op.name, ws);
    const first = cases.ok[0];
    if (first === undefined) throw new Error(`${op.name}: no ok case`);
    const calls = [...cases.ok.map((args) => ({ tool: op.name, args })), ...(cases.errors ?? []).map((e) => ({ tool: op.name, ...e }))];
    (cases.last ? last : own).push(...calls);
    generic.push({ tool: op.name, args: { ...first, bogus_field: 1 }, code: 'INVALID_INPUT' });
    if (!op.opensWorkspace) generic.push({ tool: op.name, args: { ...first, workspace: path.join(ws.folder, 'not-open') }, code: 'WORKSPACE_NOT_FOUND' });
  }
  return [...own, ...generic, ...last];
}
