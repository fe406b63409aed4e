// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { isHtmlTooDeep, MAX_HTML_NESTING } from './depthLimit.ts';
import { htmlTooDeepIfReady, loadHtmlSanitizer } from './nodeViews/htmlSanitizer.ts';

const nested = (levels: number) => '<div>'.repeat(levels) + 'deep' + '</div>'.repeat(levels);

describe('the nesting check of pasted HTML', () => {
  it('measures the DOM the browser builds while the tokenizer has not loaded', () => {
    expect(htmlTooDeepIfReady(nested(1))).toBeNull();
    expect(isHtmlTooDeep(nested(MAX_HTML_NESTING + 1))).toBe(true);
    expect(isHtmlTooDeep(nested(MAX_HTML_NESTING - 1))).toBe(false);
    expect(isHtmlTooDeep(`${nested(10)}${'<br>'.repeat(MAX_HTML_NESTING + 1)}`)).toBe(false);
  });

  it('reads the tokens once the code an HTML paste needs has loaded', async () => {
    await loadHtmlSanitizer();
    expect(htmlTooDeepIfReady(nested(MAX_HTML_NESTING + 1))).toBe(true);
    expect(htmlTooDeepIfReady(nested(MAX_HTML_NESTING))).toBe(false);
    expect(htmlTooDeepIfReady(`${nested(10)}${'<br>'.repeat(MAX_HTML_NESTING + 1)}`)).toBe(false);
    expect(isHtmlTooDeep(nested(10_000))).toBe(true);
  });
});
