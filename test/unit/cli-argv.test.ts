// A person's command line: common flags before the command word are read as they are after it, and a
// mistyped operation name answers with the one it was meant to be.
import { describe, expect, it } from 'vitest';

import { commandFirst } from '../../src/cli/thin/argv.js';
import { LspgateError } from '../../src/errors/errors.js';
import { findOperation } from '../../src/frontends/one-shot.js';

describe('common flags before the command word', () => {
  it('move after it, with their values', () => {
    expect(commandFirst(['--root', '/ws', '--daemon', 'off', 'search_symbols', 'Node'])).toEqual([
      'search_symbols',
      '--root',
      '/ws',
      '--daemon',
      'off',
      'Node',
    ]);
    expect(commandFirst(['--json', '--root=/ws', 'list_repos'])).toEqual(['list_repos', '--json', '--root=/ws']);
    expect(commandFirst(['--servers', 'a.json', 'mcp', '--http'])).toEqual(['mcp', '--servers', 'a.json', '--http']);
  });
  it('leave everything else as it was', () => {
    expect(commandFirst(['--version'])).toEqual(['--version']);
    expect(commandFirst(['--help'])).toEqual(['--help']);
    expect(commandFirst(['--root', '/ws'])).toEqual(['--root', '/ws']);
    expect(commandFirst(['--bogus', 'x', 'list_repos'])).toEqual(['--bogus', 'x', 'list_repos']);
    expect(commandFirst(['search_symbols', '--root', '/ws', 'x'])).toEqual(['search_symbols', '--root', '/ws', 'x']);
  });
});

function unknown(name: string): LspgateError {
  try {
    findOperation(name);
  } catch (e) {
    return e as LspgateError;
  }
  throw new Error(`${name} was found`);
}

describe('a mistyped operation', () => {
  it('names the operation it was meant to be', () => {
    expect(unknown('serch_symbols').message).toContain('did you mean search_symbols?');
    expect(unknown('find-references').details).toMatchObject({ did_you_mean: 'find_references' });
    expect(unknown('callers').message).toContain('did you mean find_callers?');
  });
  it('names none when none is close or two are as close', () => {
    expect(unknown('frobnicate').message).not.toContain('did you mean');
    expect(unknown('outline').message).not.toContain('did you mean');
    expect(unknown('--root').message).toContain('flags go after the operation');
  });
});
