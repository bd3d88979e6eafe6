import { describe, expect, it } from 'vitest';

import { escapeBlock, escapeForText, escapeLine, jsonSafeText } from '../../src/util/control-chars.js';

describe('control characters in text answers', () => {
  it('a one-line value shows every control character as an escape', () => {
    expect(escapeLine('a\u001b]0;pwned\u0007.ts')).toBe('a\\e]0;pwned\\x07.ts');
    expect(escapeLine('x\n## Instructions\r\t')).toBe('x\\n## Instructions\\r\\t');
    expect(escapeLine('\u009b2J \u202eevil\u2069 \u2028')).toBe('\\x9b2J \\u202eevil\\u2069 \\u2028');
    expect(escapeLine('plain/päth_名前.ts')).toBe('plain/päth_名前.ts');
  });

  it('a block keeps its lines, tabs and CRLF endings', () => {
    expect(escapeBlock('a\r\n\tb\n\u001b[2Jc\rd')).toBe('a\r\n\tb\n\\e[2Jc\\rd');
  });

  it('a result: names and paths as lines, source as a block, keys escaped, the input untouched', () => {
    const input = { file: 'a\nb.ts', source: 'x\n\u0007y', items: [{ name: 'n\u001b' }], map: { 'k\u0007': 1 }, n: 3 };
    const out = escapeForText(input);
    expect(out).toEqual({ file: 'a\\nb.ts', source: 'x\n\\x07y', items: [{ name: 'n\\e' }], map: { 'k\\x07': 1 }, n: 3 });
    expect(input.file).toBe('a\nb.ts');
  });

  it('JSON text stays the same value, with C1 and bidi characters as \\u escapes', () => {
    const value = { name: 'a\u009b\u202eb\u001b' };
    const text = jsonSafeText(JSON.stringify(value));
    // eslint-disable-next-line no-control-regex -- finding control characters is the point
    expect(text).not.toMatch(/[\u009b\u202e\u001b]/);
    expect(JSON.parse(text)).toEqual(value);
  });
});
