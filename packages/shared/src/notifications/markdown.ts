/**
 * User-written text (a site label, a name) made safe to place in a markdown notification: every
 * character markdown gives a meaning is backslash-escaped, and line breaks become spaces, so the text
 * reads as typed and cannot add links, images, emphasis, headings, lists or raw HTML (issue 9, item 7).
 */
export function escapeMarkdown(text: string): string {
  return text.replace(/\r\n?|\n/g, ' ').replace(/[\\`*_{}[\]()<>#+\-.!|~&]/g, (c) => `\\${c}`);
}
