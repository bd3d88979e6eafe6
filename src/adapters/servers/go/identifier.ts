/**
 * Go identifiers (The Go Programming Language Specification, "Identifiers"): a letter (Unicode
 * category L, or `_`) followed by letters and Unicode decimal digits (Nd); keywords are not
 * identifiers.
 */
import { grammarProblem } from '../../identifier.js';

const IDENTIFIER = /^[\p{L}_][\p{L}\p{Nd}_]*$/u;

const KEYWORDS = new Set([
  'break',
  'case',
  'chan',
  'const',
  'continue',
  'default',
  'defer',
  'else',
  'fallthrough',
  'for',
  'func',
  'go',
  'goto',
  'if',
  'import',
  'interface',
  'map',
  'package',
  'range',
  'return',
  'select',
  'struct',
  'switch',
  'type',
  'var',
]);

export function goNameProblem(name: string): string | undefined {
  return grammarProblem(name, IDENTIFIER, 'Go', KEYWORDS);
}
