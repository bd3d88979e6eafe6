/** Declaration text on one line: every run of whitespace (newlines included) as one space, trimmed. */
export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
