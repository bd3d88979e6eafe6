// The structure hooks of every profile on the shapes real code has: bases after long docblocks,
// attributes and decorators, on later lines, through aliases, never generic constraints or type
// arguments; decorators and the first line of a declaration's leading block; function bodies and
// their statements. Syntax only: which base is which type is the server's answer (the language
// tests), here only what the header names.
import { describe, expect, it } from 'vitest';

import { docCommentAt, type FileStructure, fileStructure, functionBodies } from '../../src/adapters/file-structure.js';

const bases = (s: FileStructure | undefined) =>
  Object.fromEntries(
    (s?.types ?? []).map((t) => [
      t.name,
      t.bases.map((b) => `${b.relation} ${b.head === b.name ? b.name : `${b.head}…${b.name}`}@${b.at.line}:${b.at.column}`),
    ]),
  );

describe('type headers from parse trees', () => {
  it('TypeScript: `$` names, heritage on later lines, no constraints or type arguments, dotted and generic bases', async () => {
    const text = [
      'export interface $Long<', //     1
      '  A extends Base<number>,', //   2
      '> extends $Core<A>, ns.Other {}', // 3
      '@sealed', //                     4
      'export class Holder<T extends Base<number>>', // 5
      '  extends core.Base<Map<string, X>>', // 6
      '  implements Core<T>, Plain {}', // 7
      'class Mixed extends mixin(Base) {}', // 8
      'type Alias<T> = T extends Base ? 1 : 2;', // 9
    ].join('\n');
    expect(bases(await fileStructure('src/a.ts', text))).toEqual({
      $Long: ['extends $Core@3:11', 'extends ns…Other@3:24'],
      Holder: ['extends core…Base@6:16', 'implements Core@7:14', 'implements Plain@7:23'],
      Mixed: [],
    });
  });

  it('JavaScript: the heritage expression itself', async () => {
    expect(bases(await fileStructure('a.mjs', 'class A extends lib.Base {}\nclass B extends A {}\n'))).toEqual({
      A: ['extends lib…Base@1:21'],
      B: ['extends A@2:17'],
    });
  });

  it('Python: aliased, dotted and subscripted bases after a long decorator; keywords are no bases', async () => {
    const text = [
      '@dataclass(',
      '    frozen=True,',
      ')',
      'class A(',
      '    Root,',
      '    pkg.mod.Base,',
      '    Generic[T],',
      '    metaclass=Meta,',
      '):',
      '    pass',
    ].join('\n');
    expect(bases(await fileStructure('m.py', text))).toEqual({ A: ['extends Root@5:5', 'extends pkg…Base@6:13', 'extends Generic@7:5'] });
  });

  it('PHP: extends and implements below a docblock and attributes, on later lines, namespaced', async () => {
    const text = [
      '<?php',
      '/**',
      ' * Doc.',
      ' */',
      '#[Marker(',
      "    name: 'x',",
      ')]',
      'final class Post extends \\App\\Base implements',
      '    G,',
      '    \\Countable',
      '{',
      '}',
      'enum E: string implements I {}',
    ].join('\n');
    expect(bases(await fileStructure('a.php', text))).toEqual({
      Post: ['extends App…Base@8:31', 'implements G@9:5', 'implements Countable@10:6'],
      E: ['implements I@13:27'],
    });
  });

  it('Go: embedded fields and interfaces on later lines; named fields and type sets are no relations', async () => {
    const text = [
      'package p',
      'type Multi[T any] struct {',
      '\tbase.Base',
      '\t*Local',
      '\tInner[T]',
      '\tCount int',
      '}',
      'type RN interface {',
      '\tio.Reader',
      '\tNamed',
      '\tM() int',
      '\t~int | string',
      '}',
      'type Plain int',
    ].join('\n');
    expect(bases(await fileStructure('a.go', text))).toEqual({
      Multi: ['embeds base…Base@3:7', 'embeds Local@4:3', 'embeds Inner@5:2'],
      RN: ['embeds io…Reader@9:5', 'embeds Named@10:2'],
      Plain: [],
    });
  });

  it('headers: modifiers, type parameters, bases as written, decorators and comments left out', async () => {
    const ts = await fileStructure(
      'a.ts',
      [
        '@sealed',
        '/** doc */ export class Registry<T extends Named> // why',
        '  implements Repository<T, EntityId> {',
        '  private x = 1;',
        '}',
        'export abstract class A extends core.Base<T> {}',
        'export namespace Geo.Shapes {}',
      ].join('\n'),
    );
    expect(ts?.types.map((t) => [t.name, t.header, t.type_parameters, t.modifiers, t.bases.map((b) => `${b.text}|${b.written}`)])).toEqual([
      [
        'Registry',
        'export class Registry<T extends Named> implements Repository<T, EntityId>',
        '<T extends Named>',
        [],
        ['Repository|Repository<T, EntityId>'],
      ],
      ['A', 'export abstract class A extends core.Base<T>', undefined, ['abstract'], ['core.Base|core.Base<T>']],
      ['Geo.Shapes', 'export namespace Geo.Shapes', undefined, [], []],
    ]);
    const php = await fileStructure(
      'a.php',
      ['<?php', '/** Doc. */', '#[Attr]', 'final readonly class User extends \\App\\Model implements', '    Greets, Other', '{', '}'].join('\n'),
    );
    expect(php?.types.map((t) => [t.header, t.modifiers, t.bases.map((b) => `${b.relation} ${b.written}`)])).toEqual([
      [
        'final readonly class User extends \\App\\Model implements Greets, Other',
        ['final', 'readonly'],
        ['extends \\App\\Model', 'implements Greets', 'implements Other'],
      ],
    ]);
    const py = await fileStructure('a.py', 'class User(Base, Generic[T], metaclass=Meta):\n    pass\n');
    expect(py?.types[0]?.bases.map((b) => b.written)).toEqual(['Base', 'Generic[T]']);
  });

  it('renaming imports: `as` forms and default imports', async () => {
    expect((await fileStructure('a.ts', "import D, { A as B, C } from './x';\n"))?.aliases).toEqual([{ local: 'D' }, { local: 'B', imported: 'A' }]);
    // Python: every import binding with its full name as written (relative dots kept), and assignments
    expect(
      (
        await fileStructure(
          'a.py',
          'from m import Base as Root, Other\nimport x.y as z\nimport a.b\nfrom .. import (\n    p,\n    q as r,\n)\n_PyFuture = Future\nX = m.Base\ny = 1\n',
        )
      )?.aliases,
    ).toEqual([
      { local: 'Root', imported: 'Base', full: 'm.Base' },
      { local: 'Other', imported: 'Other', full: 'm.Other' },
      { local: 'z', imported: 'y', full: 'x.y' },
      { local: 'a', imported: 'b', full: 'a' },
      { local: 'p', imported: 'p', full: '..p' },
      { local: 'r', imported: 'q', full: '..q' },
      { local: '_PyFuture', imported: 'Future', assigned: true },
      { local: 'X', imported: 'Base', assigned: true },
    ]);
    // PHP: every class import, with its full name (the group's prefix joined); `use function` is none
    expect((await fileStructure('a.php', '<?php\nuse App\\Contracts\\Greets as G;\nuse A\\{B as C, D};\nuse function f;\n'))?.aliases).toEqual([
      { local: 'G', imported: 'Greets', full: 'App\\Contracts\\Greets' },
      { local: 'C', imported: 'B', full: 'A\\B' },
      { local: 'D', imported: 'D', full: 'A\\D' },
    ]);
  });
});

describe('decorations from parse trees', () => {
  const brief = (s: FileStructure | undefined) =>
    (s?.decorations ?? []).map((d) => `${d.name}@${d.at.line} lead ${d.leading_line} [${d.decorators.map((x) => `${x.name}:${x.line}`).join(' ')}]`);

  it('TypeScript: exported decorated classes, method decorators, JSDoc and line comments lead', async () => {
    const text = [
      '/** Doc. */',
      '// note',
      '@Component({',
      '  x: 1,',
      '})',
      'export class A {',
      '  /** m */',
      '  @Input() @Other',
      '  m(): void {}',
      '}',
      '',
      'const b = 1; // trailing',
      'export const useX = () => 1;',
    ].join('\n');
    expect(brief(await fileStructure('a.ts', text))).toEqual([
      'A@6 lead 1 [@Component:3]',
      'm@9 lead 7 [@Input:8 @Other:8]',
      'b@12 lead 12 []',
      'useX@13 lead 13 []',
    ]);
  });

  it('Python: decorators of functions and classes, comments above them', async () => {
    const text = [
      '# leading',
      '@app.route("/x")',
      '@login_required',
      'def view():',
      '    pass',
      '',
      'class C:',
      '    @property',
      '    def p(self):',
      '        return 1',
    ].join('\n');
    expect(brief(await fileStructure('a.py', text))).toEqual(['view@4 lead 1 [@app.route:2 @login_required:3]', 'C@7 lead 7 []', 'p@9 lead 8 [@property:8]']);
  });

  it('PHP: attributes and docblocks', async () => {
    const text = ['<?php', 'class X {', '    /** Doc. */', '    #[Scope]', '    public function active() {}', '}'].join('\n');
    expect(brief(await fileStructure('a.php', text))).toEqual(['X@2 lead 2 []', 'active@5 lead 3 [#[Scope]:4]']);
  });

  it('Go: a doc comment leads a function and a lone type; a blank line ends it', async () => {
    const text = ['package p', '', '// Stray.', '', '// F does.', 'func F() {}', '', '// T is.', 'type T struct{}'].join('\n');
    expect(brief(await fileStructure('a.go', text))).toEqual(['F@6 lead 5 []', 'T@9 lead 8 []']);
  });
});

describe('doc comments from parse trees', () => {
  it('PHP: the docblock above attributes over several lines, on members, not inherited from the class', async () => {
    const text = [
      '<?php',
      '/** Café — a class. */',
      '#[A(',
      '    x: 1,',
      ')]',
      'class C',
      '{',
      '    /**',
      '     * Naïve boot.',
      '     */',
      '    #[B(',
      '    )]',
      '    public function boot(): void {}',
      '',
      '    /** Count. */',
      '    #[B] public int $n = 1;',
      '    public function plain(): void {}',
      '}',
    ].join('\n');
    const file = { text, structure: () => structure };
    const structure = await fileStructure('a.php', text);
    expect([5, 12, 15, 16].map((line0) => docCommentAt(file, line0))).toEqual([
      '/** Café — a class. */',
      '/**\n     * Naïve boot.\n     */',
      '/** Count. */',
      undefined,
    ]);
  });
});

describe('function bodies', () => {
  it('statements of a body, compound statements whole (Python else, brace if/else)', async () => {
    const py = [
      'def f(x):',
      '    a = 1',
      '    if a:',
      '        b = 2',
      '    else:',
      '        b = 3',
      '    c = foo(',
      '        a,',
      '    )',
      '    return c',
    ].join('\n');
    expect((await functionBodies('a.py', py))?.map((b) => [b.start_line, b.end_line, b.statements])).toEqual([[2, 10, [2, 3, 7, 10]]]);
    const ts = [
      'function f() {',
      '  const a = g(',
      '    1,',
      '  );',
      '  // why',
      '  if (a) {',
      '    return "}";',
      '  } else {',
      '    return a;',
      '  }',
      '}',
    ].join('\n');
    expect((await functionBodies('a.ts', ts))?.map((b) => [b.start_line, b.end_line, b.statements])).toEqual([[1, 11, [2, 5, 6]]]);
  });
});
