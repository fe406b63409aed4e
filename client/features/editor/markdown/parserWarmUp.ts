import { inkwellSchema } from '../../../../common/editor/extensions.ts';
import { loadMarkdownCodec } from './codec.ts';

/**
 * How much work the warm-up may do, in milliseconds of parsing: a page's first parse of a large
 * file spends a good part of its time before the engine has compiled the parser's hot code, and
 * this much practice on a sample takes 28% off the parse of 1.2 MB (docs/PRODUCT.md "Markdown").
 */
const WARM_UP_MS = 400;

let started = false;

/**
 * Parses a sample page of Markdown over and over, a task apart, while the writer picks a file,
 * until WARM_UP_MS of parsing or until `stopped()`. Once per page.
 */
export async function warmUpParser(stopped: () => boolean): Promise<void> {
  if (started) return;
  started = true;
  const codec = await loadMarkdownCodec();
  const schema = inkwellSchema();
  let spent = 0;
  for (let section = 1; !stopped() && spent < WARM_UP_MS; section++) {
    const start = performance.now();
    codec.parseMarkdown(warmUpMarkdown(section), schema);
    spent += performance.now() - start;
    // A task apart: the page paints, and the file chosen meanwhile starts its import.
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}

/**
 * A page of Markdown with what READMEs and notes are made of (headings, prose with links,
 * emphasis and code, lists and task lists, code blocks, tables, quotes and callouts, images and
 * badges, raw HTML, footnotes, math, wikilinks), numbered by `section` so that no two are alike.
 */
export function warmUpMarkdown(section: number): string {
  const n = String(section);
  return `# Project ${n} [![build](https://img.shields.io/badge/build-passing-green.svg)](https://example.com/ci)

A *fast*, **small** library for \`parsing ${n}\` things, with [links](https://example.com/docs#part-${n} "Docs")
and ~~old~~ text, <kbd>Ctrl</kbd>+<kbd>K</kbd>, an autolink <https://example.com> and a note[^${n}].

## Install

\`\`\`bash
npm install --save example-${n}
\`\`\`

\`\`\`js
import { parse } from 'example';
const tree = parse('<p>${n}</p>', { strict: true });
\`\`\`

| option | type | default | what it does |
|:-------|:----:|--------:|--------------|
| \`strict\` | \`boolean\` | \`false\` | Refuses **bad** input |
| \`depth\` | \`number\` | \`${n}\` | How deep [it reads](#options) |

- [x] first item with \`code\` and a [link][ref-${n}]
- [ ] second item
  1. nested *ordered*
  2. another one, long enough to wrap across the line as prose in a list item does
     continued here

> **Note**
> Quoted text with _emphasis_ and a line
> that goes on.

> [!TIP]
> A callout with \`code\`.

<details>
<summary>More</summary>

Hidden <b>bold</b> text and <img src="https://example.com/a-${n}.png" alt="shot" width="200">.

</details>

<p align="center"><a href="https://example.com"><img src="https://example.com/logo.svg" alt="Logo"></a></p>

![diagram](https://example.com/diagram-${n}.png)

Math $e^{i\\pi} + ${n} = 0$ inline, and a [[Wiki link]].

---

- a plain item
- another, with **bold**

1. one
2. two

    indented code ${n}

[ref-${n}]: https://example.com/ref/${n}
[^${n}]: The note's text.
`;
}
