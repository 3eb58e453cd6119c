import { describe, expect, it } from 'vitest';
import { escapeMarkdown } from './markdown.ts';

describe('escapeMarkdown', () => {
  it('escapes every character markdown gives a meaning, so links, images, emphasis and HTML read as typed', () => {
    expect(escapeMarkdown('[Pay here](https://evil.example) ![x](y) **bold** _it_ `code` <b>&amp;')).toBe(
      '\\[Pay here\\]\\(https://evil\\.example\\) \\!\\[x\\]\\(y\\) \\*\\*bold\\*\\* \\_it\\_ \\`code\\` \\<b\\>\\&amp;',
    );
    expect(escapeMarkdown('# 1. - + | ~ {} \\')).toBe('\\# 1\\. \\- \\+ \\| \\~ \\{\\} \\\\');
  });

  it('keeps the text on one line and leaves plain words alone', () => {
    expect(escapeMarkdown('Shed 2\n# Heading\r\nmore')).toBe('Shed 2 \\# Heading more');
    expect(escapeMarkdown("O'Brien St, Wollongong NSW")).toBe("O'Brien St, Wollongong NSW");
  });
});
