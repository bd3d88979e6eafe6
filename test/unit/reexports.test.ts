/**
 * What an `export … from` passes on, read from the syntax tree (src/adapters/typescript/syntax.ts
 * through src/adapters/import-scan.ts), as list_package_exports follows it: each specifier with the
 * name importers see, `all` for `export *`, `namespace` for `export * as ns`; a statement inside a
 * comment or a string is none (the regex it replaces matched one in a template string).
 */
import { describe, expect, it } from 'vitest';

import { scanImports } from '../../src/adapters/import-scan.js';

describe('re-exports from the syntax tree', () => {
  it('names, aliases and star forms; nothing from comments or strings', async () => {
    const text = [
      "export { formatName as toDisplayName, padLeft } from './util/strings.js';",
      "export type { Shape } from './models/shape.js';",
      "export * from './models/types.js';",
      "export * as geometry from './services/geometry.js';",
      "// export { commented } from './commented.js';",
      "const doc = `export * from './in-template.js'`;",
      "import { used } from './imported.js';",
      'export { used };',
    ].join('\n');
    const found = (await scanImports('src/index.ts', text))!.filter((i) => i.kind === 'export');
    expect(found.map((i) => [i.specifier, i.reexports])).toEqual([
      [
        './util/strings.js',
        [
          { name: 'formatName', as: 'toDisplayName' },
          { name: 'padLeft', as: 'padLeft' },
        ],
      ],
      ['./models/shape.js', [{ name: 'Shape', as: 'Shape' }]],
      ['./models/types.js', 'all'],
      ['./services/geometry.js', 'namespace'],
    ]);
  });
});

describe('export lists from the syntax tree', () => {
  it('the local names of `export { … }` without `from`; nothing from re-exports, comments or strings', async () => {
    const { fileStructure } = await import('../../src/adapters/file-structure.js');
    const text = [
      'const a = 1;',
      'function b() {}',
      'type T = number;',
      'const decoy = 2;',
      'export { a, b as renamed };',
      'export type { T };',
      "export { other } from './other.js';",
      '// export { decoy };',
      "const s = 'export { decoy }';",
    ].join('\n');
    expect((await fileStructure('src/mod.ts', text))!.exported).toEqual(['a', 'b', 'T']);
    expect((await fileStructure('src/mod.js', 'const x = 1;\nexport { x as y };\n'))!.exported).toEqual(['x']);
  });
});
