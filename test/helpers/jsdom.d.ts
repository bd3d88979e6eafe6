// jsdom ships no types and @types/jsdom is not a dependency: the part that diagram-parsers.ts uses.
declare module 'jsdom' {
  export class JSDOM {
    constructor(html?: string, options?: { contentType?: string });
    /** The DOM window (typed loosely: the project compiles without the DOM lib). */
    readonly window: object;
  }
}
