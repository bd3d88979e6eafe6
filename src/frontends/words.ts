/**
 * Command words → operation input, shared by the REPL's dot-commands and the one-shot CLI:
 * positional words fill the operation's listed fields in order; `--field value`, `--field=value`
 * and bare boolean `--flag` / `--no-flag` fill the rest; repeating an array flag appends.
 */
import { LspgateError } from '../errors/errors.js';
import type { Operation } from '../operations/types.js';
import { coerceWord, fieldByFlag, type InputField, inputFields } from './input-fields.js';

/** Splits a line like a shell would for simple cases: whitespace, '…' and "…" quoting, backslash escapes. */
export function splitWords(line: string): string[] {
  const words: string[] = [];
  let cur = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === '\\' && quote === '"' && i + 1 < line.length) cur += line[++i];
      else cur += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < line.length) {
      cur += line[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(cur);
      cur = '';
      inWord = false;
    } else {
      cur += c;
      inWord = true;
    }
  }
  if (quote) throw new LspgateError('INVALID_INPUT', `unterminated ${quote} quote`);
  if (inWord) words.push(cur);
  return words;
}

export interface ParsedWords {
  input: Record<string, unknown>;
  /** Flags that are not input fields (front-end options like --json), with their value or true. */
  extra: Record<string, string | true>;
}

/**
 * Fills an operation's input from words. `frontFlags` are the front-end's own boolean flags
 * (e.g. `json`), kept out of the input.
 */
export function wordsToInput(op: Operation, words: string[], positional: string[] = [], frontFlags: string[] = []): ParsedWords {
  const fields = inputFields(op);
  const input: Record<string, unknown> = {};
  const extra: Record<string, string | true> = {};
  const pos = [...positional];
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (w.startsWith('--') && w.length > 2) {
      const eq = w.indexOf('=');
      let flag = eq > 0 ? w.slice(2, eq) : w.slice(2);
      let inline: string | undefined = eq > 0 ? w.slice(eq + 1) : undefined;
      if (frontFlags.includes(flag)) {
        extra[flag] = inline ?? true;
        continue;
      }
      let field = fieldByFlag(fields, flag);
      let negated = false;
      if (!field && flag.startsWith('no-')) {
        const f = fieldByFlag(fields, flag.slice(3));
        if (f?.type === 'boolean') {
          field = f;
          negated = true;
          flag = flag.slice(3);
        }
      }
      if (!field) throw unknownFlag(op, flag, fields);
      if (field.type === 'boolean' && inline === undefined) {
        // A bare boolean flag; an explicit true/false word may follow.
        const next = words[i + 1];
        if (!negated && next !== undefined && /^(true|false|yes|no|on|off|1|0)$/i.test(next)) {
          inline = next;
          i++;
        } else {
          input[field.name] = !negated;
          continue;
        }
      }
      if (inline === undefined) {
        if (i + 1 >= words.length) throw new LspgateError('INVALID_INPUT', `--${flag} needs a value`, { field: field.name });
        inline = words[++i]!;
      }
      assign(input, field, inline);
      continue;
    }
    const name = pos.shift();
    if (name === undefined) {
      throw new LspgateError(
        'INVALID_INPUT',
        `unexpected word ${JSON.stringify(w.slice(0, 100))}: ${op.name} takes ${positional.length ? `${positional.join(', ')} positionally, then ` : ''}--field value`,
        {
          positional,
        },
      );
    }
    const field = fields.find((f) => f.name === name);
    if (!field) throw new LspgateError('INTERNAL', `${op.name}: repl positional field ${name} is not an input field`);
    assign(input, field, w);
  }
  return { input, extra };
}

function assign(input: Record<string, unknown>, field: InputField, word: string): void {
  if (field.type === 'array' && !word.trimStart().startsWith('[')) {
    const list = Array.isArray(input[field.name]) ? (input[field.name] as unknown[]) : [];
    list.push(coerceWord(field, word, true));
    input[field.name] = list;
    return;
  }
  input[field.name] = coerceWord(field, word);
}

function unknownFlag(op: Operation, flag: string, fields: InputField[]): LspgateError {
  return new LspgateError('INVALID_INPUT', `${op.name} has no field --${flag}`, { fields: fields.map((f) => f.name) });
}
