#!/usr/bin/env node
// Peer comparison : cclsp (an LSP-to-MCP bridge; install it anywhere with
// `npm install cclsp` and pass its dist/index.js) against lspgate on copies of the knowledge-*
// fixtures, through each one's MCP tools: get_diagnostics on the file with an unused import and a
// type error, the same after an error is written into a clean file on disk and after it is removed
// (freshness), a rename preview across three files with an import alias, and the implementations of
// an interface with two. Prints what each answers.
//
// Usage: node bench/peer-cclsp.mjs /path/to/cclsp/dist/index.js [ts|go|py|php ...]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const HERE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { NEWEST_GO } = await import(path.join(HERE, 'dist/bench/go-toolchain.js'));
const [cclspBin, ...langs] = process.argv.slice(2);
const BIN = path.join(HERE, 'node_modules/.bin');
const CASES = {
  ts: {
    fixture: 'knowledge-ts',
    ext: ['ts'],
    cmd: [path.join(BIN, 'typescript-language-server'), '--stdio'],
    broken: 'src/broken.ts',
    clean: 'src/clean.ts',
    bad: "export const bad: number = 'oops';\n",
    decl: 'src/format.ts',
    name: 'formatTotal',
    kind: 'function',
    newName: 'priceLabel',
  },
  go: {
    fixture: 'knowledge-go',
    ext: ['go'],
    cmd: ['gopls'],
    broken: 'broken/broken.go',
    clean: 'clean/clean.go',
    bad: 'var Bad int = "oops"\n',
    decl: 'format/format.go',
    name: 'FormatTotal',
    kind: 'function',
    newName: 'PriceLabel',
  },
  py: {
    fixture: 'knowledge-py',
    ext: ['py'],
    cmd: [path.join(BIN, 'pyright-langserver'), '--stdio'],
    broken: 'knowledge/broken.py',
    clean: 'knowledge/clean.py',
    bad: 'bad: int = "oops"\n',
    decl: 'knowledge/pricing.py',
    name: 'format_total',
    kind: 'function',
    newName: 'price_label',
  },
  php: {
    fixture: 'knowledge-php',
    ext: ['php'],
    cmd: [path.join(BIN, 'intelephense'), '--stdio'],
    broken: 'src/Broken.php',
    clean: 'src/Clean.php',
    bad: "double('oops');\n",
    decl: 'src/Billing/Pricing.php',
    name: 'formatTotal',
    kind: 'method',
    newName: 'priceLabel',
  },
};

async function connect(command, args, cwd, env) {
  const client = new Client({ name: 'peer-compare', version: '0' });
  await client.connect(new StdioClientTransport({ command, args, cwd, env: { ...process.env, ...env }, stderr: 'ignore' }));
  return client;
}

const full = (r) =>
  (r.content ?? [])
    .map((c) => c.text ?? '')
    .join('\n')
    .replace(/\s+/g, ' ');
/** cclsp lists each edit as `Line a, Column b to Line c, Column d`. */
const text = (r) => {
  const t = full(r);
  const edits = (t.match(/Line \d+, Column \d+ to/g) ?? []).length;
  return `${edits ? `[${edits} edits] ` : ''}${t.slice(0, 300)}`;
};

for (const lang of langs.length ? langs : Object.keys(CASES)) {
  const c = CASES[lang];
  const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'peer-')));
  const root = path.join(tmp, c.fixture);
  fs.cpSync(path.join(HERE, 'fixtures', c.fixture), root, { recursive: true });
  fs.writeFileSync(path.join(tmp, 'cclsp.json'), JSON.stringify({ servers: [{ extensions: c.ext, command: c.cmd, rootDir: root }] }));
  const env = { PATH: `${path.dirname(NEWEST_GO)}:${process.env.PATH}`, GOPROXY: 'off', GOTOOLCHAIN: 'local', GOFLAGS: '-mod=mod' };
  const peer = await connect(process.execPath, [cclspBin], root, { ...env, CCLSP_CONFIG_PATH: path.join(tmp, 'cclsp.json') });
  const gate = await connect(process.execPath, [path.join(HERE, 'dist/src/cli/main.js'), 'mcp', '--tools', 'all', '--root', root], root, {
    ...env,
    LSPGATE_CACHE_DIR: path.join(tmp, 'cache'),
  });
  const both = async (label, peerCall, gateCall) => {
    const [p, g] = await Promise.all([
      peer.callTool(peerCall).catch((e) => ({ content: [{ text: `ERROR ${e.message}` }] })),
      gate.callTool(gateCall).catch((e) => ({ content: [{ text: `ERROR ${e.message}` }] })),
    ]);
    console.log(`\n[${lang}] ${label}\n  cclsp:   ${text(p)}\n  lspgate: ${text(g)}`);
  };
  const abs = (f) => path.join(root, f);
  await both(
    'diagnostics of broken',
    { name: 'get_diagnostics', arguments: { file_path: abs(c.broken) } },
    { name: 'get_diagnostics', arguments: { file: c.broken } },
  );
  await both(
    'diagnostics of clean',
    { name: 'get_diagnostics', arguments: { file_path: abs(c.clean) } },
    { name: 'get_diagnostics', arguments: { file: c.clean } },
  );
  const original = fs.readFileSync(abs(c.clean), 'utf8');
  fs.writeFileSync(abs(c.clean), original + c.bad);
  await both(
    'diagnostics of clean after an error is written on disk',
    { name: 'get_diagnostics', arguments: { file_path: abs(c.clean) } },
    { name: 'get_diagnostics', arguments: { file: c.clean } },
  );
  fs.writeFileSync(abs(c.clean), original);
  await both(
    'diagnostics of clean after the error is removed',
    { name: 'get_diagnostics', arguments: { file_path: abs(c.clean) } },
    { name: 'get_diagnostics', arguments: { file: c.clean } },
  );
  await both(
    'rename preview across three files (one imports it under an alias)',
    { name: 'rename_symbol', arguments: { file_path: abs(c.decl), symbol_name: c.name, symbol_kind: c.kind, new_name: c.newName, dry_run: true } },
    { name: 'rename_symbol', arguments: { symbol: c.name, new_name: c.newName } },
  );
  // the interface's name, found by text (1-based line and column)
  const shapeFile = { ts: 'src/shapes.ts', go: 'shapes/shapes.go', py: 'knowledge/shapes.py', php: 'src/Shapes/Shape.php' }[lang];
  const lines = fs.readFileSync(abs(shapeFile), 'utf8').split('\n');
  const line = lines.findIndex((l) => /(interface|class|type) Shape\b/.test(l));
  const column = lines[line].indexOf('Shape') + 1;
  await both(
    'implementations of the interface Shape (two)',
    { name: 'find_implementation', arguments: { file_path: abs(shapeFile), line: line + 1, character: column } },
    { name: 'find_implementations', arguments: { file: shapeFile, line: line + 1, column } },
  );
  const tools = (await peer.listTools()).tools.map((t) => t.name);
  if (lang === (langs[0] ?? 'ts')) console.log(`\ncclsp tools: ${tools.join(', ')}`);
  await peer.close();
  await gate.close();
  fs.rmSync(tmp, { recursive: true, force: true });
}
