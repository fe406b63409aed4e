import { describe, expect, it } from 'vitest';
import { countWords, missingWords } from './missingWords.ts';

describe('missingWords', () => {
  it('lists the words the output lost, as many times as they were lost', () => {
    expect(missingWords('one two two three', 'one two')).toEqual(['two', 'three']);
  });

  it('counts words of any script, with digits and combining marks', () => {
    expect([...countWords('Grüße, 東京 2024 café').keys()]).toEqual([
      'Grüße',
      '東京',
      '2024',
      'café',
    ]);
    expect(missingWords('naïve', 'nai\u0308ve')).toEqual([]);
  });

  it('forgives the contents of script and style and event handler attributes', () => {
    const source =
      '<script>steal cookies</script><style>.x{color:red}</style><img onerror="alert(1)" alt="cat">';
    expect(missingWords(source, '![cat]()')).toEqual([]);
  });

  it('still counts script and style text shown inside code', () => {
    expect(missingWords('```html\n<script>kept</script>\n```', '')).toEqual([
      'html',
      'script',
      'script',
      'kept',
    ]);
  });

  it('does not let a <script> shown as inline code forgive the words after it', () => {
    expect(missingWords('Avoid `<script>` tags. Later words.', 'Avoid tags.')).toEqual([
      'script',
      'Later',
      'words',
    ]);
  });

  it('reads backticks in a raw HTML block as characters, not as code', () => {
    const source = '<div>\n<x onbegin=`alert(16)`>text</x>\n</div>';
    expect(missingWords(source, 'text')).toEqual([]);
  });

  it('counts the words of indented code, script tags included', () => {
    expect(missingWords('Para\n\n    <script>shown</script>\n', 'Para')).toEqual([
      'script',
      'script',
      'shown',
    ]);
  });

  it('forgives markup that a round trip may rewrite', () => {
    const source = '<b>bold</b> &amp; [text][label]\n\n3. third\n\n[label]: https://example.com\n';
    expect(missingWords(source, '**bold** & [text](https://example.com)\n\n1. third\n')).toEqual(
      [],
    );
  });

  it('counts words in attribute values unless told to ignore them', () => {
    expect(missingWords('<div id="intro">Hi</div>', 'Hi')).toEqual(['intro']);
    expect(missingWords('<div id="intro">Hi</div>', 'Hi', { ignoreAttributeValues: true })).toEqual(
      [],
    );
  });

  it('reads character references in the output as the characters', () => {
    expect(missingWords('café', 'caf&eacute;')).toEqual([]);
  });

  it('reads percent escapes in the output as the characters', () => {
    expect(missingWords('[a]: ]]https://x.org/é', '[a](%5D%5Dhttps://x.org/%C3%A9)')).toEqual([]);
    expect(missingWords('100%zz done', '100%zz')).toEqual(['done']);
  });

  it('forgives template content, namespaced tag names and the CDATA marker as markup', () => {
    expect(missingWords('a <template>b c</template> d', 'a  d')).toEqual([]);
    expect(missingWords('<svg:mask>x</svg:mask>', 'x')).toEqual([]);
    expect(missingWords('<svg><![CDATA[x]]></svg>', 'x')).toEqual([]);
  });

  it('forgives, with attribute values, odd attribute names and words a removed tag had parted', () => {
    const lenient = { ignoreAttributeValues: true };
    expect(missingWords('<x onload&#x3d;alert(1)>t', 't', lenient)).toEqual([]);
    expect(missingWords('<set/xmlns=u>t', 't', lenient)).toEqual([]);
    expect(missingWords('123<x>CLICK</x>', '123CLICK', lenient)).toEqual([]);
    expect(missingWords('123<x>CLICK</x>', '123CLICK')).toEqual(['123', 'CLICK']);
    // A word lost outright is still missing, even next to one that was joined.
    expect(missingWords('lost 123<x>CLICK</x>', '123CLICK', lenient)).toEqual(['lost']);
  });

  it('counts words that only emphasis delimiters parted, and that the output joined, as kept', () => {
    // CommonMark shows `foxtrot_*_*why*` as foxtrot<em>why</em>: one word to a reader. Nested
    // emphasis of one kind reads back as one level, so the export writes the word whole.
    expect(
      missingWords('Say _*_delta foxtrot_*_*why*, not', 'Say *delta foxtrotwhy*, not'),
    ).toEqual([]);
    // A joined word forgives only the words it is made of, and only when the source joins them.
    expect(missingWords('foxtrot_*_*why* echo', 'foxtrotwhy')).toEqual(['echo']);
    expect(missingWords('foxtrot why', 'foxtrotwhy')).toEqual(['foxtrot', 'why']);
  });

  it('reads the indented paragraphs of a footnote definition as Inkwell does: text, not code', () => {
    const source = '[^n]: First.\n\n    More <textarea>text here.\n';
    expect(missingWords(source, '[^n]: First.\n\n    More text here.\n')).toEqual([]);
    // Indented code elsewhere is still code, every word of it counted.
    expect(missingWords('Para.\n\n    More <textarea>text\n', 'Para.\n\n    More text\n')).toEqual([
      'textarea',
    ]);
  });

  it('reads math blocks as Inkwell does: an HTML block opened in one ends with it', () => {
    const source = '$$\n<!DOCTYPE html\n$$\n```mermaid\n  a .-> b\n```\nThe <textarea>end\n';
    const output = '$$\n<!DOCTYPE html\n$$\n\n```mermaid\n  a .-> b\n```\n\nThe end\n';
    expect(missingWords(source, output)).toEqual([]);
  });

  it('reads link reference definitions as Inkwell does: backticks in them open no code span', () => {
    const source =
      '[Keep][kac] and [One][1.1.1].\n\n[1.1.1]: `https://e.com/a\n[kac]: `https://e.com/b\n';
    const output = '[Keep](%60https://e.com/b) and [One](%60https://e.com/a).\n';
    expect(missingWords(source, output)).toEqual([]);
  });

  it('opens no code span across two blocks, as a list item and the next', () => {
    const source = '1. One.\n   ]]`2. `npm ci`\n3. `npm test` runs\n';
    const output = '1. One.\n   \\]\\]`2. `npm ci\\`\n2. `npm test` runs\n';
    expect(missingWords(source, output)).toEqual([]);
  });

  it('opens no code span at an escaped backtick', () => {
    expect(missingWords('Escaped: \\`not <textarea>code\\`.', 'Escaped: \\`not code\\`.')).toEqual(
      [],
    );
    expect(missingWords('Code: `not <textarea>code`.', 'Code: `not code`.')).toEqual(['textarea']);
  });

  it('reads front matter as Inkwell does: a fence in it opens no code block', () => {
    const source = '---\ntitle: x\n```\n---\n\n[a link][ref] <b>bold</b>\n\n[ref]: https://x.org\n';
    expect(
      missingWords(source, '---\ntitle: x\n```\n---\n\n[a link](https://x.org) **bold**'),
    ).toEqual([]);
  });
});
