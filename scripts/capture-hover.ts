/**
 * Dev tool: drives one raw language server over stdio and prints, for every documentSymbol of the
 * given files, the symbol (name, kind, detail, ranges) and the hover text at its name. The unit
 * tests of the Go/Python/PHP parsers use strings captured with it.
 *
 *   npx tsc --outDir /tmp/capture --module nodenext --moduleResolution nodenext --target es2022 \
 *     --skipLibCheck scripts/capture-hover.ts
 *   node /tmp/capture/capture-hover.js <gopls|pyright|intelephense> <root> <file>...
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import {
  DidOpenTextDocumentNotification,
  DocumentSymbolRequest,
  HoverRequest,
  InitializedNotification,
  InitializeRequest,
  type DocumentSymbol,
  type Hover,
  type MarkupContent,
} from 'vscode-languageserver-protocol';

const require = createRequire(import.meta.url);

function command(server: string): { cmd: string; args: string[]; env: NodeJS.ProcessEnv; languageId: string } {
  const env = { ...process.env };
  switch (server) {
    case 'gopls':
      // the newest Debian Go first, as servers.json's extraPath has it
      env.PATH = `${['1.26', '1.25', '1.24', '1.23'].map((v) => `/usr/lib/go-${v}/bin`).join(':')}:${env.PATH}`;
      Object.assign(env, { GOTOOLCHAIN: 'local', GOPROXY: 'off', GOFLAGS: '-mod=mod' });
      return { cmd: 'gopls', args: ['serve'], env, languageId: 'go' };
    case 'pyright':
      return { cmd: process.execPath, args: [require.resolve('pyright/langserver.index.js'), '--stdio'], env, languageId: 'python' };
    case 'intelephense':
      return { cmd: process.execPath, args: [require.resolve('intelephense/lib/intelephense.js'), '--stdio'], env, languageId: 'php' };
    default:
      throw new Error(`unknown server ${server}`);
  }
}

function hoverText(h: Hover | null): string | undefined {
  if (!h) return undefined;
  const c = h.contents;
  if (typeof c === 'string') return c;
  if (Array.isArray(c)) return c.map((x) => (typeof x === 'string' ? x : x.value)).join('\n');
  return (c as MarkupContent).value;
}

async function main(): Promise<void> {
  const [server, rootArg, ...files] = process.argv.slice(2);
  if (!server || !rootArg || files.length === 0) throw new Error('usage: capture-hover <server> <root> <file>...');
  const root = path.resolve(rootArg);
  const { cmd, args, env, languageId } = command(server);
  const child = spawn(cmd, args, { env, stdio: ['pipe', 'pipe', 'inherit'] });
  const conn = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  conn.onRequest(() => null);
  conn.onNotification(() => undefined);
  conn.listen();
  const rootUri = pathToFileURL(root).href;
  await conn.sendRequest(InitializeRequest.type, {
    processId: process.pid,
    rootUri,
    workspaceFolders: [{ uri: rootUri, name: path.basename(root) }],
    capabilities: {
      textDocument: {
        hover: { contentFormat: ['markdown', 'plaintext'] },
        documentSymbol: { hierarchicalDocumentSymbolSupport: true },
      },
    },
    initializationOptions: server === 'intelephense' ? { storagePath: '/tmp/capture-ip', globalStoragePath: '/tmp/capture-ip-g' } : {},
  });
  await conn.sendNotification(InitializedNotification.type, {});
  await new Promise((r) => setTimeout(r, 3000)); // dev tool only: crude wait for indexing
  const out: unknown[] = [];
  for (const f of files) {
    const abs = path.resolve(root, f);
    const uri = pathToFileURL(abs).href;
    await conn.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId, version: 1, text: readFileSync(abs, 'utf8') },
    });
    const symbols = ((await conn.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri } })) ?? []) as DocumentSymbol[];
    const walk = async (list: DocumentSymbol[], depth: number): Promise<void> => {
      for (const s of list) {
        const h = await conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: s.selectionRange.start });
        out.push({ file: f, depth, name: s.name, kind: s.kind, detail: s.detail, range: s.range, sel: s.selectionRange.start, hover: hoverText(h) });
        if (s.children) await walk(s.children, depth + 1);
      }
    };
    await walk(symbols, 0);
  }
  process.stdout.write(JSON.stringify(out, null, 1) + '\n');
  conn.dispose();
  child.kill();
}

main().catch((e) => {
  process.stderr.write(String(e?.stack ?? e) + '\n');
  process.exit(1);
});
