/**
 * The whole-word test that picks the unparsed files a name can be declared in (early-names.ts): a
 * file holding the name only inside a longer identifier is not a candidate; any other is.
 */
import { describe, expect, it } from 'vitest';

import { holdsWord } from '../../src/catalog/early-names.js';

const holds = (text: string, word: string) => holdsWord(Buffer.from(text), Buffer.from(word));

describe('holdsWord', () => {
  it('finds the name as a whole word, not inside a longer identifier', () => {
    expect(holds('export class UserService {}', 'UserService')).toBe(true);
    expect(holds('class UserServiceImpl {}\nconst xUserService = 1;', 'UserService')).toBe(false);
    expect(holds('class UserServiceImpl {}\nnew UserService()', 'UserService')).toBe(true);
    expect(holds('func (r *Router) ServeHTTP(w http.ResponseWriter)', 'ServeHTTP')).toBe(true);
    expect(holds('UserService', 'UserService')).toBe(true);
  });

  it('treats `_`, `$`, digits and non-ASCII letters as part of an identifier', () => {
    expect(holds('const _run = 1; const run2 = 2; const $run = 3; const érun = 4;', 'run')).toBe(false);
    expect(holds('const a = run;', 'run')).toBe(true);
  });

  it('finds a PHP variable with its `$`', () => {
    expect(holds('public function __get($name)', '$name')).toBe(true);
    expect(holds('public function __get($names)', '$name')).toBe(false);
  });
});
