// No operation answers from a server that is still loading. A generated
// project (hundreds of files, written into a temp dir by this test) keeps intelephense and
// tsserver busy indexing for a moment after start; the first find_references must either be
// complete (every generated call site) or say `_meta.index_state: "indexing"` — never a partial
// list presented as ready. Both servers answer partial lists while they load (tsserver's
// syntax server gives same-file hits only; intelephense's answer grows with its index).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { Gateway } from '../../src/gateway/gateway.js';

const PHP_FILES = 600;
const TS_FILES = 300;

function tempDir(): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-')));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function write(root: string, rel: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), text);
}

/** `App\Util::helper()` declared once and called once from each of `n` generated classes. */
function phpProject(n: number): string {
  const root = tempDir();
  write(root, 'composer.json', '{"name":"lspgate-test/readiness","autoload":{"psr-4":{"App\\\\":"src/"}}}\n');
  write(root, 'src/Util.php', '<?php\n\nnamespace App;\n\nclass Util\n{\n    public static function helper(): int\n    {\n        return 1;\n    }\n}\n');
  for (let i = 0; i < n; i++) {
    write(
      root,
      `src/Generated/Unit${i}.php`,
      `<?php\n\nnamespace App\\Generated;\n\nuse App\\Util;\n\nclass Unit${i}\n{\n    public function value${i}(): int\n    {\n        return Util::helper() + ${i};\n    }\n}\n`,
    );
  }
  return root;
}

/** `helper` exported from src/util.ts, imported and called by each of `n` generated modules. */
function tsProject(n: number): string {
  const root = tempDir();
  write(root, 'package.json', '{"name":"readiness","private":true,"type":"module"}\n');
  write(root, 'tsconfig.json', JSON.stringify({ compilerOptions: { strict: true, module: 'nodenext', target: 'es2022', noEmit: true }, include: ['src'] }));
  write(root, 'src/util.ts', 'export function helper(): number {\n  return 1;\n}\n');
  for (let i = 0; i < n; i++) write(root, `src/gen/m${i}.ts`, `import { helper } from '../util.js';\n\nexport const v${i} = helper() + ${i};\n`);
  return root;
}

/** 1-based line and column of the first `needle` in a file. */
function positionOf(root: string, rel: string, needle: string): { line: number; column: number } {
  const lines = fs.readFileSync(path.join(root, rel), 'utf8').split('\n');
  const line = lines.findIndex((l) => l.includes(needle));
  if (line < 0) throw new Error(`${needle} not in ${rel}`);
  return { line: line + 1, column: lines[line]!.indexOf(needle) + 1 };
}

async function openGateway(root: string, override?: object): Promise<Gateway> {
  const cacheDir = tempDir();
  const serversFiles: string[] = [];
  if (override) {
    const file = path.join(cacheDir, 'servers.override.json');
    fs.writeFileSync(file, JSON.stringify({ servers: [override] }));
    serversFiles.push(file);
  }
  const gateway = await Gateway.create({ root, cacheDir, serversFiles });
  afterAll(() => gateway.close());
  return gateway;
}

async function references(gateway: Gateway, file: string, pos: { line: number; column: number }) {
  const r = await gateway.run('find_references', { file, line: pos.line, column: pos.column, max_results: 5000, output_format: 'json' });
  return r.result as typeof r.result & { total: number };
}

const cases = [
  { server: 'intelephense', make: () => phpProject(PHP_FILES), file: 'src/Util.php', needle: 'helper', expected: PHP_FILES + 1 },
  // Each generated module imports and calls helper: two references per module, plus the declaration.
  { server: 'typescript-language-server', make: () => tsProject(TS_FILES), file: 'src/util.ts', needle: 'helper', expected: 2 * TS_FILES + 1 },
];

for (const c of cases) {
  describe(`${c.server} while it indexes a generated project`, () => {
    it('the first answer, with the default readiness budget, is ready and complete', { timeout: 240_000 }, async () => {
      const root = c.make();
      const gateway = await openGateway(root);
      const r = await references(gateway, c.file, positionOf(root, c.file, c.needle));
      // With the budget the server needs, the call waits for the end of indexing.
      expect([r._meta.index_state, r.total]).toEqual(['ready', c.expected]);
    });

    it(
      'the first answer with a budget too short to wait is marked indexing, or complete; a later one is ready and complete',
      { timeout: 240_000 },
      async () => {
        const root = c.make();
        // readyMs 1: the call cannot wait for indexing to end, so whatever it answers must say so.
        const gateway = await openGateway(root, { id: c.server, timeouts: { readyMs: 1 } });
        const pos = positionOf(root, c.file, c.needle);
        const first = await references(gateway, c.file, pos);
        if (first._meta.index_state === 'ready') expect(first.total).toBe(c.expected);
        else {
          expect(first._meta.index_state).toBe('indexing');
          expect(first._meta.warnings?.some((w) => w.includes('indexing'))).toBe(true);
        }
        const session = await gateway.context.broker.sessionFor(path.join(root, c.file), root);
        expect(await session.waitReady(120_000)).toBe('ready');
        const later = await references(gateway, c.file, pos);
        expect([later._meta.index_state, later.total]).toEqual(['ready', c.expected]);
      },
    );
  });
}
