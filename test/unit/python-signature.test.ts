// Hover strings below were captured from pyright 1.1.414 on fixtures/py-app with scripts/capture-hover.ts.
import { describe, expect, it } from 'vitest';

import {
  docSections,
  docstringAfter,
  dunderAll,
  headerAt,
  parseAssignment,
  parsePyDef,
  parsePyHover,
  pyVisibility,
} from '../../src/adapters/python/signature.js';

describe('parsePyHover', () => {
  it('reads a multi-line method hover with its docstring', () => {
    const h = parsePyHover(
      '```python\n(method) def from_email(\n    cls: type[Self@User],\n    email: str\n) -> User\n```\n---\nBuilds a user from an address like `first.last@host`.',
    );
    expect(h).toEqual({
      label: 'method',
      code: 'def from_email(\n    cls: type[Self@User],\n    email: str\n) -> User',
      doc: 'Builds a user from an address like `first.last@host`.',
    });
    expect(parsePyDef(h.code!)).toEqual({
      name: 'from_email',
      isAsync: false,
      params: [
        { name: 'cls', type: 'type[Self@User]' },
        { name: 'email', type: 'str' },
      ],
      returns: 'User',
    });
  });

  it('reads variable, property and class hovers', () => {
    expect(parsePyHover("```python\n(variable) kind: Literal['user']\n```")).toEqual({ label: 'variable', code: "kind: Literal['user']" });
    expect(parsePyHover('```python\n(property) display_name: (self: Self@User) -> str\n```\n---\nThe name shown in greetings.').label).toBe('property');
    expect(parsePyHover('```python\nclass Base()\n```\n---\nCommon base for models.')).toEqual({
      label: 'class',
      code: 'class Base()',
      doc: 'Common base for models.',
    });
    expect(parsePyHover(undefined)).toEqual({});
  });
});

describe('parsePyDef on source headers', () => {
  it('parameters with defaults, *args, keyword-only and **kwargs', () => {
    expect(parsePyDef('def __init__(self, first: str, last: str, *roles: Role, active: bool = True) -> None:')).toEqual({
      name: '__init__',
      isAsync: false,
      params: [
        { name: 'self' },
        { name: 'first', type: 'str' },
        { name: 'last', type: 'str' },
        { name: '*roles', type: 'Role', variadic: true },
        { name: 'active', type: 'bool', default: 'True', optional: true },
      ],
      returns: 'None',
    });
    expect(parsePyDef('async def fetch(url, /, *, timeout: float = 1.5, **kw) -> dict[str, int]:')).toEqual({
      name: 'fetch',
      isAsync: true,
      params: [{ name: 'url' }, { name: 'timeout', type: 'float', default: '1.5', optional: true }, { name: '**kw', variadic: true }],
      returns: 'dict[str, int]',
    });
    expect(parsePyDef('def f(x: Callable[[int, str], bool] = (1, 2), y="a,b")')?.params).toEqual([
      { name: 'x', type: 'Callable[[int, str], bool]', default: '(1, 2)', optional: true },
      { name: 'y', default: '"a,b"', optional: true },
    ]);
  });

  it('keeps lambda defaults whole: their parameters hold commas, their `:` ends them', () => {
    expect(parsePyDef('def f(rows, key=lambda a, b: a + b, *cols: str, cmp=lambda: 0, k=lambda x, *r, **kw: (x, r), last=1)')?.params).toEqual([
      { name: 'rows' },
      { name: 'key', default: 'lambda a, b: a + b', optional: true },
      { name: '*cols', type: 'str', variadic: true },
      { name: 'cmp', default: 'lambda: 0', optional: true },
      { name: 'k', default: 'lambda x, *r, **kw: (x, r)', optional: true },
      { name: 'last', default: '1', optional: true },
    ]);
    // An annotated lambda default: the annotation's `:` is not the lambda's.
    expect(parsePyDef('def g(key: Callable[[int, int], int] = lambda a, b: a, x=2)')?.params).toEqual([
      { name: 'key', type: 'Callable[[int, int], int]', default: 'lambda a, b: a', optional: true },
      { name: 'x', default: '2', optional: true },
    ]);
  });

  it('joins multi-line headers and reads the docstring after them', () => {
    const lines = [
      'def normalize(',
      '    name: str,',
      '    upper: bool = False,',
      ') -> str:',
      '    """Trims a name.',
      '',
      '    Longer.',
      '    """',
      '    return name',
    ];
    const [text, end] = headerAt(lines, 0);
    expect(end).toBe(3);
    expect(parsePyDef(text)?.returns).toBe('str');
    expect(docstringAfter(lines, end, 8)).toBe('Trims a name.\n\nLonger.');
    expect(docstringAfter(['def f():', '    return 1'], 0, 1)).toBeUndefined();
    expect(docstringAfter(['def f():', "    '''One line.'''"], 0, 1)).toBe('One line.');
  });
});

describe('docstring sections', () => {
  it('Google style', () => {
    const s = docSections(
      'Trims a name.\n\nArgs:\n    name: The raw name.\n    upper (bool): Whether to\n        upper-case it.\n\nReturns:\n    The cleaned name.',
    );
    expect([...s.params]).toEqual([
      ['name', 'The raw name.'],
      ['upper', 'Whether to upper-case it.'],
    ]);
    expect(s.returns).toBe('The cleaned name.');
  });

  it('NumPy and Sphinx styles', () => {
    const np = docSections('Sum.\n\nParameters\n----------\na : int\n    First.\nb : int\n    Second.\n\nReturns\n-------\nint\n    The sum.');
    expect([...np.params]).toEqual([
      ['a', 'First.'],
      ['b', 'Second.'],
    ]);
    expect(np.returns).toBe('The sum.');
    const sp = docSections('Sum.\n\n:param a: first\n:param int b: second\n:returns: the sum');
    expect([...sp.params]).toEqual([
      ['a', 'first'],
      ['b', 'second'],
    ]);
    expect(sp.returns).toBe('the sum');
  });
});

describe('source helpers', () => {
  it('visibility, assignments, __all__', () => {
    expect(pyVisibility('__init__')).toEqual({ visibility: 'public', dunder: true });
    expect(pyVisibility('__log')).toEqual({ visibility: 'private', dunder: false });
    expect(pyVisibility('_audit')).toEqual({ visibility: 'protected', dunder: false });
    expect(pyVisibility('grant')).toEqual({ visibility: 'public', dunder: false });
    expect(parseAssignment('    kind: str = "user"')).toEqual({ name: 'kind', self: false, type: 'str', default: '"user"' });
    expect(parseAssignment('        self.first = first')).toEqual({ name: 'first', self: true, default: 'first' });
    expect(parseAssignment('    registry: ClassVar[dict[str, int]] = {}')).toEqual({
      name: 'registry',
      self: false,
      type: 'ClassVar[dict[str, int]]',
      default: '{}',
    });
    expect(dunderAll('from x import A\n__all__ = ["Role", "User"]\n')).toEqual(['Role', 'User']);
    expect(dunderAll('x = 1')).toBeUndefined();
  });
});
