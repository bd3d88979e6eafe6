/**
 * typescript-language-server / tsserver (and tsgo): descriptors from documentSymbol + hover + the
 * declaration's source text. (First version: generic behaviour; TS specifics follow.)
 */
import { genericAdapter } from './generic.js';
import type { LanguageAdapter } from './types.js';

export const typescriptAdapter: LanguageAdapter = {
  ...genericAdapter,
  name: 'typescript',
};
