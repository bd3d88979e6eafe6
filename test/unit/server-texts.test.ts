/**
 * The pieces of the server-text gate that need no server: private-key blocks redacted wherever a text
 * quotes them (whole, escaped in a string type, or cut short by the server), and the callee of a call
 * site found in the text (signature help is judged by where the called function is declared).
 */
import { describe, expect, it } from 'vitest';

import { calleeOffset } from '../../src/service/navigation/callee.js';
import { REDACTED_KEY, redactPrivateKeys } from '../../src/util/secret-files.js';

const BEGIN = '-----BEGIN RSA ' + 'PRIVATE KEY-----';
const END = '-----END RSA ' + 'PRIVATE KEY-----';

describe('redactPrivateKeys', () => {
  it('replaces a whole block and keeps the text around it', () => {
    expect(redactPrivateKeys(`before\n${BEGIN}\nMIIEab+/==\n${END}\nafter`)).toBe(`before\n${REDACTED_KEY}\nafter`);
  });

  it('replaces a block quoted in a string type with escaped newlines', () => {
    expect(redactPrivateKeys(`const k: "${BEGIN}\\nMIIEab\\n${END}"`)).toBe(`const k: "${REDACTED_KEY}"`);
  });

  it('replaces a block the server cut short, up to the first character a key cannot hold', () => {
    expect(redactPrivateKeys(`const k: "${BEGIN}\\nMIIEab+/...", docs`)).toBe(`const k: "${REDACTED_KEY}", docs`);
  });

  it('leaves a text without a key as it is', () => {
    const t = 'function f(a: string): PRIVATE KEY';
    expect(redactPrivateKeys(t)).toBe(t);
  });
});

function callee(source: string, lineComment = '//'): string | undefined {
  const at = source.indexOf('|');
  const text = source.replace('|', '');
  const i = calleeOffset(text, at, lineComment);
  if (i === undefined) return undefined;
  let s = i;
  while (s > 0 && /\w/.test(text[s - 1]!)) s--;
  return text.slice(s, i + 1);
}

describe('calleeOffset', () => {
  it('the name before the innermost open parenthesis', () => {
    expect(callee('send(a, |b)')).toBe('send');
    expect(callee('outer(inner(x), |y)')).toBe('outer');
    expect(callee('outer(inner(|x))')).toBe('inner');
    expect(callee('obj.method<T, U>(|)')).toBe('method');
    expect(callee('new Thing (|')).toBe('Thing');
  });

  it('parentheses in strings and comments open nothing', () => {
    expect(callee('send("(", |b)')).toBe('send');
    expect(callee("send(')', |b)")).toBe('send');
    expect(callee('send(a, // (\n |b)')).toBe('send');
    expect(callee('send(a, /* ( */ |b)')).toBe('send');
    expect(callee('send(a, # (\n |b)', '#')).toBe('send');
    expect(callee('send(a // 2, |b)', '#')).toBe('send');
  });

  it('none outside a call, or for a called expression', () => {
    expect(callee('const a = |1')).toBeUndefined();
    expect(callee('f()(|x)')).toBeUndefined();
  });
});
