/**
 * The hostile-input corpus (issues 5 and 16), shared by every front-end's pass over it
 * (hostile-input.test.ts: gateway, MCP in-process, sidecar in-process and spawned;
 * hostile-frontends.test.ts: spawned `lspgate mcp` over stdio and HTTP, and the one-shot CLI).
 * The workspace holds a canary outside the root and secrets inside it; no answer may contain either.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** fixtures/repo-basic, found upwards from here (this file also runs compiled, from dist/test/helpers, in bench/redteam). */
export const FIXTURE = ((): string => {
  let dir = path.dirname(new URL(import.meta.url).pathname);
  while (!fs.existsSync(path.join(dir, 'fixtures/repo-basic')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return path.join(dir, 'fixtures/repo-basic');
})();
export const OUTSIDE_CANARY = 'OUTSIDE-CANARY-91d2';
export const SECRET_CANARY = 'SECRET-CANARY-55ab';

export interface HostileWorkspace {
  root: string;
  outside: string;
}

/** The secret files of the secret-file table, each holding the secret canary. */
export const SECRET_TABLE = ['.envrc', 'prod.env', 'id_rsa.bak', 'id_ed25519_sk', 'aws_credentials.txt', '.netrc', 'certs/site.pem', 'certs/client.p12'];

/** Builds the workspace in `tmp` (repo/ and its sibling outside/); `w` is filled in place. */
export function buildHostileWorkspace(tmp: string, w: HostileWorkspace): void {
  w.root = path.join(tmp, 'repo');
  w.outside = path.join(tmp, 'outside');
  const { root, outside } = w;
  fs.cpSync(FIXTURE, root, { recursive: true });
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(outside, 'canary.ts'), `export function x(): string {\n  return '${OUTSIDE_CANARY}';\n}\n`);
  fs.mkdirSync(`${root}-evil`);
  fs.writeFileSync(path.join(`${root}-evil`, 'canary.ts'), `export const x = '${OUTSIDE_CANARY}';\n`);
  fs.symlinkSync(path.join(outside, 'canary.ts'), path.join(root, 'src/link-out.ts'));
  fs.symlinkSync(outside, path.join(root, 'linked'));
  fs.writeFileSync(path.join(root, '.env'), `API_TOKEN=${SECRET_CANARY}\n`);
  fs.mkdirSync(path.join(root, 'keys'));
  fs.writeFileSync(path.join(root, 'keys/server.key'), `-----BEGIN PRIVATE KEY-----\n${SECRET_CANARY}\n`);
  for (const rel of SECRET_TABLE) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), `token=${SECRET_CANARY}\n`);
  }
  // a private key under an innocent name: found by content
  fs.writeFileSync(path.join(root, 'src/notes.ts'), `// -----BEGIN OPENSSH PRIVATE KEY-----\n// ${SECRET_CANARY}\n// -----END OPENSSH PRIVATE KEY-----\n`);
  fs.writeFileSync(path.join(root, 'src/blob.ts'), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 0, 1, 2, 3, 0, 0x0a]));
  fs.writeFileSync(path.join(root, 'src/latin1.ts'), Buffer.from('export const caf\xe9 = 1;\n', 'latin1'));
  fs.mkdirSync(path.join(root, 'loop'));
  fs.symlinkSync('..', path.join(root, 'loop/up'));
}

export interface Row {
  what: string;
  op: string;
  input: () => Record<string, unknown>;
  code: string;
}

const id = (file: string) => `${file}::x#function`;
export function hostileRows(w: HostileWorkspace): Row[] {
  return [
    { what: '../ escape in a symbol id', op: 'get_symbol', input: () => ({ symbol_id: id('../outside/canary.ts') }), code: 'PATH_OUTSIDE_WORKSPACE' },
    { what: 'deep ../ escape', op: 'get_symbol', input: () => ({ symbol_id: id('src/../../../../../../etc/passwd') }), code: 'PATH_OUTSIDE_WORKSPACE' },
    { what: 'absolute path outside', op: 'get_symbol', input: () => ({ symbol_id: id(path.join(w.outside, 'canary.ts')) }), code: 'PATH_OUTSIDE_WORKSPACE' },
    {
      what: 'file:// URL outside',
      op: 'get_symbol',
      input: () => ({ symbol_id: id(pathToFileURL(path.join(w.outside, 'canary.ts')).href) }),
      code: 'PATH_OUTSIDE_WORKSPACE',
    },
    { what: 'symlinked file pointing out', op: 'get_symbol', input: () => ({ symbol_id: id('src/link-out.ts') }), code: 'PATH_OUTSIDE_WORKSPACE' },
    { what: 'symlinked parent directory pointing out', op: 'get_symbol', input: () => ({ symbol_id: id('linked/canary.ts') }), code: 'PATH_OUTSIDE_WORKSPACE' },
    { what: 'sibling-prefix path', op: 'get_symbol', input: () => ({ symbol_id: id(`${w.root}-evil/canary.ts`) }), code: 'PATH_OUTSIDE_WORKSPACE' },
    { what: 'NUL byte', op: 'get_symbol', input: () => ({ symbol_id: id('src/greeter.ts\0.txt') }), code: 'INVALID_INPUT' },
    {
      what: 'URL-encoded traversal (taken literally)',
      op: 'get_symbol',
      input: () => ({ symbol_id: id('..%2F..%2Foutside%2Fcanary.ts') }),
      code: 'SYMBOL_NOT_FOUND',
    },
    { what: 'Windows drive path', op: 'get_symbol', input: () => ({ symbol_id: id('C:\\Windows\\win.ini') }), code: 'PATH_OUTSIDE_WORKSPACE' },
    { what: 'Windows-separator traversal', op: 'get_symbol', input: () => ({ symbol_id: id('..\\outside\\canary.ts') }), code: 'PATH_OUTSIDE_WORKSPACE' },
    { what: 'UNC path', op: 'get_symbol', input: () => ({ symbol_id: id('\\\\server\\share\\x.ts') }), code: 'PATH_OUTSIDE_WORKSPACE' },
    {
      what: 'unicode look-alike (NFD) of an existing file',
      op: 'get_symbol',
      input: () => ({ symbol_id: 'src/cafe\u0301.ts::brew#function' }),
      code: 'SYMBOL_NOT_FOUND',
    },
    { what: '.env through get_symbol', op: 'get_symbol', input: () => ({ symbol_id: '.env::API_TOKEN#variable' }), code: 'SECRET_FILE' },
    { what: 'key file through get_symbols', op: 'get_symbols', input: () => ({ symbol_ids: ['keys/server.key::k#variable'] }), code: 'none' },
    { what: '.env through open_at', op: 'open_at', input: () => ({ file: '.env', line: 1 }), code: 'SECRET_FILE' },
    { what: 'key through open_at', op: 'open_at', input: () => ({ file: 'keys/server.key', line: 1 }), code: 'SECRET_FILE' },
    { what: 'outside file through open_at', op: 'open_at', input: () => ({ file: '../outside/canary.ts', line: 1 }), code: 'PATH_OUTSIDE_WORKSPACE' },
    { what: 'symlink out through open_at', op: 'open_at', input: () => ({ file: 'src/link-out.ts', line: 1 }), code: 'PATH_OUTSIDE_WORKSPACE' },
    { what: '.env through get_file_outline', op: 'get_file_outline', input: () => ({ file: '.env' }), code: 'SECRET_FILE' },
    { what: 'huge line number', op: 'open_at', input: () => ({ file: 'src/greeter.ts', line: 1e9 }), code: 'INVALID_INPUT' },
    { what: 'negative line number', op: 'open_at', input: () => ({ file: 'src/greeter.ts', line: -5 }), code: 'INVALID_INPUT' },
    { what: 'fractional line number', op: 'open_at', input: () => ({ file: 'src/greeter.ts', line: 1.5 }), code: 'INVALID_INPUT' },
    { what: 'giant symbol query', op: 'search_symbols', input: () => ({ query: 'x'.repeat(100_000) }), code: 'INVALID_INPUT' },
    { what: 'giant text query', op: 'search_text', input: () => ({ query: 'y'.repeat(100_000) }), code: 'INVALID_INPUT' },
    // RE2 matches in linear time: a catastrophic pattern for V8 is an ordinary search (search-linear.test.ts)
    { what: 'catastrophic regex', op: 'search_text', input: () => ({ query: '(x+x+)+y', regex: true }), code: 'none' },
    { what: 'regex with a backreference', op: 'search_text', input: () => ({ query: '(a)\\1', regex: true }), code: 'INVALID_INPUT' },
    { what: 'reversed glob range', op: 'search_text', input: () => ({ query: 'x', file_pattern: '[z-a]' }), code: 'INVALID_INPUT' },
    { what: 'reversed glob range in symbol search', op: 'search_symbols', input: () => ({ query: 'x', file_pattern: '[z-a]' }), code: 'INVALID_INPUT' },
    { what: 'forged cursor', op: 'search_symbols', input: () => ({ query: 'greet', cursor: 'eyJvIjotMX0' }), code: 'INVALID_INPUT' },
    { what: 'file tree outside', op: 'get_file_tree', input: () => ({ path_prefix: '../outside' }), code: 'PATH_OUTSIDE_WORKSPACE' },
    { what: 'unknown operation', op: 'rm_rf_everything', input: () => ({}), code: 'UNKNOWN_OPERATION' },
    { what: 'wrong type (number id)', op: 'get_symbol', input: () => ({ symbol_id: 42 }), code: 'INVALID_INPUT' },
    { what: 'wrong type (array query)', op: 'search_symbols', input: () => ({ query: ['a'] }), code: 'INVALID_INPUT' },
    { what: 'wrong type (object path)', op: 'index_folder', input: () => ({ path: { p: 1 } }), code: 'INVALID_INPUT' },
    { what: 'git option injection', op: 'index_repo', input: () => ({ url: '--upload-pack=touch /tmp/lspgate-pwned' }), code: 'INVALID_INPUT' },
    { what: 'git ext:: transport', op: 'index_repo', input: () => ({ url: 'ext::sh -c touch% /tmp/lspgate-pwned' }), code: 'INVALID_INPUT' },
    { what: 'index_folder of a system folder', op: 'index_folder', input: () => ({ path: '/etc' }), code: 'PATH_OUTSIDE_WORKSPACE' },
    { what: 'index_folder of a sibling by ../', op: 'index_folder', input: () => ({ path: '../outside' }), code: 'PATH_OUTSIDE_WORKSPACE' },
    { what: 'index_folder through a symlink out', op: 'index_folder', input: () => ({ path: 'linked' }), code: 'PATH_OUTSIDE_WORKSPACE' },
    { what: 'index_repo of a local folder outside', op: 'index_repo', input: () => ({ url: w.outside }), code: 'PATH_OUTSIDE_WORKSPACE' },
    { what: 'index_repo of a file:// URL outside', op: 'index_repo', input: () => ({ url: pathToFileURL(w.outside).href }), code: 'PATH_OUTSIDE_WORKSPACE' },
    { what: 'git fd:: transport', op: 'index_repo', input: () => ({ url: 'fd::0' }), code: 'INVALID_INPUT' },
    { what: 'git:// transport', op: 'index_repo', input: () => ({ url: 'git://example.invalid/x.git' }), code: 'INVALID_INPUT' },
    { what: 'ref option injection', op: 'index_repo', input: () => ({ url: '/nonexistent', ref: '--foo' }), code: 'INVALID_INPUT' },
    // every hostile case where a row applies
    ...SECRET_TABLE.map((file): Row => ({ what: `secret file ${file} through open_at`, op: 'open_at', input: () => ({ file, line: 1 }), code: 'SECRET_FILE' })),
    { what: 'private key under an innocent name through open_at', op: 'open_at', input: () => ({ file: 'src/notes.ts', line: 1 }), code: 'SECRET_FILE' },
    { what: 'secret content through search_text', op: 'search_text', input: () => ({ query: 'CANARY' }), code: 'none' },
    { what: 'nested-quantifier regex ((a+))+X', op: 'search_text', input: () => ({ query: '((a+))+X', regex: true }), code: 'none' },
    { what: 'alternation regex (a|aa)+X', op: 'search_text', input: () => ({ query: '(a|aa)+X', regex: true }), code: 'none' },
    { what: 'star-run regex a*a*a*a*a*a*Q', op: 'search_text', input: () => ({ query: 'a*a*a*a*a*a*Q', regex: true }), code: 'none' },
    {
      what: 'backtracking glob in search_symbols',
      op: 'search_symbols',
      input: () => ({ query: 'x', file_pattern: '*/*/*/*/**/**/**/**/**/**/**/**/**/**/x.ts' }),
      code: 'none',
    },
    { what: 'binary file with a source extension through open_at', op: 'open_at', input: () => ({ file: 'src/blob.ts', line: 1 }), code: 'INVALID_INPUT' },
    { what: 'binary file through get_file_outline', op: 'get_file_outline', input: () => ({ file: 'src/blob.ts' }), code: 'INVALID_INPUT' },
    { what: 'Latin-1 file through open_at', op: 'open_at', input: () => ({ file: 'src/latin1.ts', line: 1 }), code: 'INVALID_INPUT' },
    { what: 'file through a symlink loop', op: 'open_at', input: () => ({ file: 'loop/up/loop/up/src/greeter.ts', line: 1 }), code: 'none' },
    { what: 'file tree through a symlink loop', op: 'get_file_tree', input: () => ({ path_prefix: 'loop/up/loop/up' }), code: 'none' },
  ];
}

/** The row's input as CLI flags: `--field=value` (a value may start with `--`), arrays repeated, booleans bare. */
export function cliArgs(input: Record<string, unknown>): string[] {
  const args: string[] = [];
  for (const [k, v] of Object.entries(input)) {
    if (typeof v === 'boolean') {
      args.push(v ? `--${k}` : `--no-${k}`);
      continue;
    }
    for (const one of Array.isArray(v) ? v : [v]) args.push(`--${k}=${typeof one === 'string' ? one : JSON.stringify(one)}`);
  }
  return args;
}

/** Rows the one-shot CLI cannot carry: NUL bytes do not fit in argv, and argv values are text. */
export function cliCanCarry(row: Row): boolean {
  return !row.what.startsWith('wrong type') && !JSON.stringify(row.input()).includes('\\u0000');
}
