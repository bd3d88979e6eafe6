// find_patterns on the pat-* fixtures: each has two types sharing a base (and one that does not
// recur), decorators or attributes, route registrations and known error-handling forms.
import { describe, expect, it } from 'vitest';

import { openFixture } from '../helpers/gateway.js';
import { goAvailable } from '../helpers/go.js';
import type { JsonResult } from '../helpers/results.js';

interface Info {
  usage: number;
  files: string[];
  pattern_type: string;
  sites: { file: string; line: number; symbol_id?: string }[];
}

/** `type | name | usage | files` per pattern, in answer order (most used first). */
function listed(r: JsonResult): string[] {
  return Object.entries(r.patterns as Record<string, Info>).map(([k, p]) => `${p.pattern_type} | ${k} | ${p.usage} | ${p.files.join(',')}`);
}

describe('find_patterns: TypeScript', async () => {
  const fx = await openFixture('pat-ts');

  it('finds shared bases, decorators, routes and error handling, each with files and usage', async () => {
    const r = await fx.run('find_patterns', { limit: 100 });
    expect(listed(r)).toEqual([
      'decorators | @logged | 2 | src/service.ts',
      'framework | routes app.get | 2 | src/routes.ts',
      // tsserver defines Error twice (lib's interface and var): each subtype still counts once
      'inheritance | subtypes of Error (external) | 2 | src/errors.ts',
      'inheritance | subtypes of Shape | 2 | src/shapes.ts',
      'error-handling | promise .catch() | 1 | src/service.ts',
      'framework | routes app.post | 1 | src/routes.ts',
      'error-handling | throw (rethrow or value) | 1 | src/service.ts',
      'error-handling | throw Invalid | 1 | src/service.ts',
      'error-handling | throw NotFound | 1 | src/service.ts',
      'error-handling | try/catch | 1 | src/service.ts',
    ]);
    expect(r.patterns['subtypes of Shape'].sites.map((s: { symbol_id: string }) => s.symbol_id)).toEqual([
      'src/shapes.ts::Circle#class',
      'src/shapes.ts::Square#class',
    ]);
    expect(r.patterns['subtypes of Shape'].description).toContain('implement interface Shape (src/shapes.ts:1)');
    // `app.get('users', ...)` (line 16) has no path: not a route
    expect(r.patterns['routes app.get'].sites.map((s: { line: number }) => s.line)).toEqual([12, 13]);
    expect(r.success).toBe(true);
    expect(r.pattern_type).toBe('all');
  });

  it('pattern_type narrows; limit pages with a cursor', async () => {
    const only = await fx.run('find_patterns', { pattern_type: 'inheritance' });
    expect(Object.keys(only.patterns)).toEqual(['subtypes of Error (external)', 'subtypes of Shape']);
    const first = await fx.run('find_patterns', { limit: 3 });
    expect(Object.keys(first.patterns)).toEqual(['@logged', 'routes app.get', 'subtypes of Error (external)']);
    expect(first._meta.truncated).toBe(true);
    expect(first.total).toBe(10);
    expect(first.files_scanned).toBe(5);
    const next = await fx.run('find_patterns', { limit: 3, cursor: first._meta.next_cursor });
    expect(Object.keys(next.patterns)).toEqual(['subtypes of Shape', 'promise .catch()', 'routes app.post']);
  });

  it('limit outside 1..100 is INVALID_INPUT', async () => {
    expect((await fx.runError('find_patterns', { limit: 101 })).code).toBe('INVALID_INPUT');
    expect((await fx.runError('find_patterns', { pattern_type: 'data-fetching' })).code).toBe('INVALID_INPUT');
  });
});

describe('find_patterns: Python', async () => {
  const fx = await openFixture('pat-py');

  it('bases resolved by pyright, decorators, Flask-style routes, except/raise forms', async () => {
    expect(listed(await fx.run('find_patterns', { limit: 100 }))).toEqual([
      'decorators | @dataclass | 2 | app/shapes.py',
      'framework | routes @app.route | 2 | app/web.py',
      'inheritance | subtypes of Exception (external) | 2 | app/errors.py',
      'inheritance | subtypes of Shape | 2 | app/shapes.py',
      'error-handling | try/except | 2 | app/web.py',
      'decorators | @abstractmethod | 1 | app/shapes.py',
      'error-handling | except (ValueError, TypeError) | 1 | app/web.py',
      'error-handling | except KeyError | 1 | app/web.py',
      'error-handling | raise Invalid | 1 | app/web.py',
      'error-handling | raise NotFound | 1 | app/web.py',
      'error-handling | re-raise | 1 | app/web.py',
    ]);
  });
});

describe.runIf(goAvailable)('find_patterns: Go', async () => {
  const fx = await openFixture('pat-go');

  it('implementations of an interface come from gopls; Go error idioms and mux routes', async () => {
    const r = await fx.run('find_patterns', { limit: 100 });
    expect(listed(r)).toEqual([
      'error-handling | if err != nil | 2 | shapes/shapes.go',
      'framework | routes mux.HandleFunc | 2 | web/web.go',
      'inheritance | subtypes of Shape | 2 | shapes/shapes.go',
      'error-handling | errors.New | 1 | shapes/shapes.go',
      'error-handling | fmt.Errorf %w | 1 | shapes/shapes.go',
      'error-handling | panic | 1 | shapes/shapes.go',
      'framework | routes http.HandleFunc | 1 | web/web.go',
    ]);
    expect(r.patterns['subtypes of Shape'].sites.map((s: { symbol_id: string }) => s.symbol_id)).toEqual([
      'shapes/shapes.go::Circle#struct',
      'shapes/shapes.go::Square#struct',
    ]);
  });
});

describe('find_patterns: PHP', async () => {
  const fx = await openFixture('pat-php');

  it('Eloquent models from the adapter, interface implementations, attributes, Laravel routes', async () => {
    const r = await fx.run('find_patterns', { limit: 100 });
    expect(listed(r)).toEqual([
      'decorators | #[Deprecated] | 2 | app/Contracts/Hello.php,app/Contracts/Hi.php',
      'framework | Eloquent models | 2 | app/Models/Comment.php,app/Models/Post.php',
      'inheritance | subtypes of Greets | 2 | app/Contracts/Hello.php,app/Contracts/Hi.php',
      'inheritance | subtypes of Model | 2 | app/Models/Comment.php,app/Models/Post.php',
      'error-handling | catch \\ValueError|\\TypeError | 1 | app/Contracts/Hi.php',
      'framework | routes Route::get | 1 | routes/web.php',
      'framework | routes Route::post | 1 | routes/web.php',
      'error-handling | throw \\InvalidArgumentException | 1 | app/Contracts/Hello.php',
      'error-handling | throw \\RuntimeException | 1 | app/Contracts/Hi.php',
      'error-handling | try/catch | 1 | app/Contracts/Hi.php',
    ]);
    const fw = await fx.run('find_patterns', { pattern_type: 'framework' });
    expect(Object.keys(fw.patterns)).toEqual(['Eloquent models', 'routes Route::get', 'routes Route::post']);
  });
});
