/**
 * One-shot argument parsing (node:util parseArgs driven by the operation's input schema) and the
 * REPL's word parser, on the test operation table: coercion of numbers and booleans, arrays by
 * repetition, positionals, kebab-case aliases, and coded usage errors.
 */
import { describe, expect, it } from 'vitest';

import { LspgateError } from '../../src/errors/errors.js';
import { parseOperationArgs } from '../../src/frontends/operation-args.js';
import { splitWords, wordsToInput } from '../../src/frontends/words.js';
import { withMeta } from '../../src/schema/meta.js';
import { testOperations } from '../helpers/test-operations.mjs';

const ops = testOperations({ LspgateError, withMeta });
const echo = ops.find((o: { name: string }) => o.name === 'echo')!;

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    return e instanceof LspgateError ? e.code : `not an LspgateError: ${String(e)}`;
  }
  return undefined;
}

describe('one-shot arguments', () => {
  it('coerces numbers and booleans from the field types and collects repeated array flags', () => {
    const { input, flags } = parseOperationArgs(echo, ['--text', 'hi', '--times', '3', '--loud', '--tags', 'a', '--tags', 'b', '--json', '--root', '/x']);
    expect(input).toEqual({ text: 'hi', times: 3, loud: true, tags: ['a', 'b'] });
    expect(flags).toMatchObject({ json: true, root: '/x', help: false });
  });

  it('fills the listed positional fields and accepts --no-flag and kebab-case', () => {
    const { input } = parseOperationArgs(echo, ['hello', '--no-loud', '--output-format', 'json']);
    expect(input).toEqual({ text: 'hello', loud: false, output_format: 'json' });
  });

  it('accepts one JSON array for an array field', () => {
    expect(parseOperationArgs(echo, ['x', '--tags', '["p","q"]']).input.tags).toEqual(['p', 'q']);
  });

  it('answers INVALID_INPUT for unknown flags, missing values, bad numbers and extra positionals', () => {
    expect(codeOf(() => parseOperationArgs(echo, ['--nope', '1']))).toBe('INVALID_INPUT');
    expect(codeOf(() => parseOperationArgs(echo, ['--times']))).toBe('INVALID_INPUT');
    expect(codeOf(() => parseOperationArgs(echo, ['--times', 'three']))).toBe('INVALID_INPUT');
    expect(codeOf(() => parseOperationArgs(echo, ['a', 'b']))).toBe('INVALID_INPUT');
  });

  it("names an unknown flag as the operation's, with the field it was meant to be", () => {
    const message = (argv: string[]) => {
      try {
        parseOperationArgs(echo, argv);
      } catch (e) {
        return (e as Error).message;
      }
      return 'no error';
    };
    expect(message(['hi', '--tims', '2'])).toBe('echo has no option --tims; did you mean --times? (lspgate echo --help lists its options)');
    expect(message(['hi', '--bogus'])).toBe('echo has no option --bogus (lspgate echo --help lists its options)');
    // a string flag's value may start with dashes; --no-<boolean> and words after `--` are not flags
    expect(parseOperationArgs(echo, ['--text=--x', '--no-loud']).input).toEqual({ text: '--x', loud: false });
    expect(parseOperationArgs(echo, ['--loud', '--', '--not-a-flag']).input).toEqual({ text: '--not-a-flag', loud: true });
  });
});

describe('REPL words', () => {
  it('splits quoted words and maps them like the CLI', () => {
    expect(splitWords(`"two words" --tags 'a b' x\\ y`)).toEqual(['two words', '--tags', 'a b', 'x y']);
    const { input, extra } = wordsToInput(echo, splitWords('hi --times=2 --loud --tags a --tags b --json'), ['text'], ['json']);
    expect(input).toEqual({ text: 'hi', times: 2, loud: true, tags: ['a', 'b'] });
    expect(extra).toEqual({ json: true });
  });

  it('reads an explicit boolean word after a boolean flag', () => {
    expect(wordsToInput(echo, ['x', '--loud', 'false'], ['text']).input).toEqual({ text: 'x', loud: false });
  });

  it('answers INVALID_INPUT for unterminated quotes and unknown flags', () => {
    expect(codeOf(() => splitWords('"open'))).toBe('INVALID_INPUT');
    expect(codeOf(() => wordsToInput(echo, ['--what', 'x'], ['text']))).toBe('INVALID_INPUT');
  });
});
