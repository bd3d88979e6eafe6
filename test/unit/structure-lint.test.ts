// The lint rule that keeps structure on parse trees: ESLint (eslint.config.js, STRUCTURE_MODULES)
// rejects a regex literal or a RegExp in the modules that decide type relations, headers,
// decorators, syntax patterns and chunk boundaries, and leaves other modules alone (hover text and
// names are parsed with regexes elsewhere); every glob of the list names files that exist.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { ESLint } from 'eslint';
import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// the lint configuration is plain JavaScript: its list is read as the linter reads it
const { STRUCTURE_MODULES } = (await import(pathToFileURL(path.join(ROOT, 'eslint.config.js')).href)) as { STRUCTURE_MODULES: string[] };
const PLANT =
  "export const bases = (header: string): string[] => [...header.matchAll(/extends\\s+(\\w+)/g)].map((m) => m[1]!);\nexport const again = new RegExp('implements');\n";

function tracked(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' }).map((f) => `${dir}/${f.split(path.sep).join('/')}`);
}

describe('structure modules hold no regex', () => {
  const eslint = new ESLint({ cwd: ROOT });

  it('a regex planted in a structure module is an error naming the rule; the same text elsewhere is not', async () => {
    const [inRelations] = await eslint.lintText(PLANT, { filePath: path.join(ROOT, 'src/service/relations/planted.ts') });
    expect(inRelations!.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.line)).toEqual([1, 2]);
    const [inHover] = await eslint.lintText(PLANT, { filePath: path.join(ROOT, 'src/adapters/servers/typescript/planted-hover.ts') });
    expect(inHover!.messages.filter((m) => m.ruleId === 'no-restricted-syntax')).toEqual([]);
  }, 120_000);

  it('every glob of the list names existing files', () => {
    const files = tracked('src');
    for (const glob of STRUCTURE_MODULES) expect([glob, files.some((f) => picomatch(glob)(f))]).toEqual([glob, true]);
  });
});
