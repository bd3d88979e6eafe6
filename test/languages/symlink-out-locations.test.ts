// A file inside the workspace that is a symlink to a file outside it (`src/link.ts -> ../outside/b.ts`)
// is in tsserver's project (tsconfig `include: src/**`), so references answer locations on the link's
// path. DESIGN: "symlinks out of the root are refused": such a location is reported at its real path
// outside the root, external, with no text quoted from it — and the rest of the answer still comes
// (before, the whole find_references failed PATH_OUTSIDE_WORKSPACE on the link).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Gateway } from '../../src/gateway/gateway.js';
import type { ReferenceEntry } from '../helpers/results.js';

const MARKER = 'OUTSIDE-TEXT-42';

function project(): { tmp: string; root: string; outside: string } {
  const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-outlink-')));
  const root = path.join(tmp, 'root');
  const outside = path.join(tmp, 'outside');
  fs.mkdirSync(path.join(root, 'src'), { recursive: true });
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(outside, 'b.ts'), `import { shared } from './shared';\nexport const OUTSIDE_MARKER = shared('${MARKER}');\n`);
  fs.writeFileSync(path.join(outside, 'shared.ts'), 'export function shared(s: string): string { return s; }\n');
  fs.writeFileSync(path.join(root, 'src/shared.ts'), "export function shared(s: string): string { return s; }\nexport function useIt(): string { return shared('inside'); }\n");
  fs.symlinkSync(path.join(outside, 'b.ts'), path.join(root, 'src/link.ts'));
  fs.writeFileSync(path.join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, target: 'es2022', module: 'nodenext' }, include: ['src/**/*'] }));
  return { tmp, root, outside };
}

describe('a symlink inside the workspace to a file outside it (typescript-language-server)', () => {
  const { tmp, root, outside } = project();
  let gateway: Gateway;
  afterAll(async () => {
    await gateway?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("find_references answers; the link's locations are on their real outside path, external, unquoted", { timeout: 180_000 }, async () => {
    gateway = await Gateway.create({ root, cacheDir: path.join(tmp, 'cache') });
    const r = await gateway.run('find_references', { file: 'src/shared.ts', line: 1, column: 17, max_results: 1000, output_format: 'json' });
    const refs = (r.result as unknown as { references: ReferenceEntry[] }).references;
    const files = refs.map((x) => x.file);
    expect(files).toContain('src/shared.ts');
    // tsserver saw the link's uses of `shared`: they are reported where the file really is.
    const out = refs.filter((x) => x.file === path.join(outside, 'b.ts'));
    expect(out.length).toBeGreaterThan(0);
    expect(files.some((f) => f.includes('link.ts'))).toBe(false);
    // Nothing of the outside file's text, in the structured answer or in the markdown.
    expect(JSON.stringify(r.result)).not.toContain(MARKER);
    const md = await gateway.run('find_references', { file: 'src/shared.ts', line: 1, column: 17, max_results: 1000 });
    expect(JSON.stringify(md.result)).not.toContain(MARKER);
    expect(JSON.stringify(md.result)).toContain('outside/b.ts');
  });
});
