import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCommand } from './cli.ts';
import { MARKDOWN_IMPORT_LIMIT } from './decode.ts';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('the md command-line codec', () => {
  it('prints what Inkwell exports after importing', () => {
    // The heading keeps its underline; bullets are written as `-` (docs/PRODUCT.md, "Markdown").
    expect(runCommand('roundtrip', bytes('Title\n=====\n\n* a\n* b\n'))).toBe(
      'Title\n=====\n\n- a\n- b\n',
    );
  });

  it('converts to document JSON and back', () => {
    const json = runCommand('to-json', bytes('# Hi\n\nSome **bold**.\n'));
    const doc = JSON.parse(json) as { type: string; content: Array<{ type: string }> };
    expect(doc.type).toBe('doc');
    expect(doc.content.map((node) => node.type)).toEqual(['heading', 'paragraph']);
    expect(runCommand('from-json', bytes(json))).toBe('# Hi\n\nSome **bold**.\n');
  });

  it('refuses a file that is not UTF-8 text', () => {
    expect(() => runCommand('roundtrip', new Uint8Array([0x23, 0x20, 0xff, 0xfe, 0x00]))).toThrow(
      /not UTF-8 text/,
    );
    expect(() => runCommand('roundtrip', bytes('# a\u0000b'))).toThrow(/binary/);
  });

  it('says on which line a file stops being text', () => {
    const invalid = new Uint8Array([...bytes('# a\n\nb\n'), 0xed, 0xa0, 0xbd, 0x0a]);
    expect(() => runCommand('roundtrip', invalid)).toThrow(
      'This file is not UTF-8 text (line 4 holds bytes that are not), so it cannot be read as Markdown.',
    );
    expect(() => runCommand('roundtrip', bytes('# a\n\nb\u0000c\n'))).toThrow(
      'Line 3, column 2 holds a NUL character (U+0000), which text never does: this looks like a ' +
        'binary file, not Markdown.',
    );
  });

  it('refuses a file over the import limit', () => {
    const big = new Uint8Array(MARKDOWN_IMPORT_LIMIT + 1).fill(0x61);
    expect(() => runCommand('roundtrip', big)).toThrow(/up to 10\.0 MB/);
  });

  it('explains JSON that is broken or not a document', () => {
    expect(() => runCommand('from-json', bytes('{"type":'))).toThrow(/not valid JSON/);
    expect(() => runCommand('from-json', bytes('{"type":"rocket"}'))).toThrow(
      /not an Inkwell document/,
    );
    expect(() =>
      runCommand('from-json', bytes('{"type":"doc","content":[{"type":"text","text":"x"}]}')),
    ).toThrow(/not an Inkwell document/);
  });

  it('drops a javascript: link from document JSON and keeps its text', () => {
    const doc = {
      type: 'doc',
      content: [
        {
          type: 'paragraph',
          content: [
            {
              type: 'text',
              text: 'click',
              marks: [{ type: 'link', attrs: { href: ' JaVaScRiPt:alert(1)' } }],
            },
          ],
        },
      ],
    };
    expect(runCommand('from-json', bytes(JSON.stringify(doc)))).toBe('click\n');
  });

  it('refuses Markdown nested past the limit and exits 1 with the line', () => {
    const cli = fileURLToPath(new URL('./cli.ts', import.meta.url));
    for (const command of ['roundtrip', 'to-json']) {
      const run = spawnSync(process.execPath, ['--import', 'tsx', cli, command], {
        input: `Intro\n\n${'>'.repeat(20_000)} deep\n\nAfter\n`,
        encoding: 'utf8',
      });
      expect(run.status, command).toBe(1);
      expect(run.stdout, command).toBe('');
      expect(run.stderr, command).toBe(
        'md: Line 3 nests blocks more than 100 levels deep (each quote counts 1, each list ' +
          'level 2); Inkwell accepts at most 100.\n',
      );
    }
  });

  it('refuses document JSON nested past the limit, saying how deep', () => {
    const deep = '{"type":"blockquote","content":['.repeat(20_000);
    const json = `{"type":"doc","content":[${deep}{"type":"paragraph"}${']}'.repeat(20_000)}]}`;
    expect(() => runCommand('from-json', bytes(json))).toThrow(
      'The input is not an Inkwell document: The document nests 20,001 levels deep',
    );
  });

  it('answers an unknown command with its usage', () => {
    expect(() => runCommand('explode', bytes(''))).toThrow(/usage/);
  });

  it('runs as `npm run md` with stdin and exit codes', () => {
    const cli = fileURLToPath(new URL('./cli.ts', import.meta.url));
    const ok = spawnSync(process.execPath, ['--import', 'tsx', cli, 'roundtrip'], {
      input: '*a*\n',
      encoding: 'utf8',
    });
    expect(ok.stdout).toBe('*a*\n');
    expect(ok.status).toBe(0);
    const bad = spawnSync(process.execPath, ['--import', 'tsx', cli, 'from-json'], {
      input: 'nope',
      encoding: 'utf8',
    });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/^md: The input is not valid JSON/);
  });
});
