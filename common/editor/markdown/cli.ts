/**
 * The Markdown codec on the command line, the same code the editor runs:
 *   npm run -s md -- roundtrip   < in.md    prints what Inkwell exports after importing in.md
 *   npm run -s md -- to-json     < in.md    prints the document JSON
 *   npm run -s md -- from-json   < doc.json prints the Markdown of a document JSON
 */
import { readFileSync } from 'node:fs';
import { inkwellSchema } from '../extensions.ts';
import { decodeMarkdownFile, MARKDOWN_IMPORT_LIMIT } from './decode.ts';
import { parseMarkdown } from './parseMarkdown.ts';
import { serializeMarkdown } from './serializeMarkdown.ts';
import { sanitizeDocJson } from '../sanitizeDocJson.ts';

const USAGE = 'usage: npm run -s md -- <roundtrip|to-json|from-json>  (input on stdin)';

/** Runs one command on `input`; returns what to print or throws an Error with a message for people. */
export function runCommand(command: string | undefined, input: Uint8Array): string {
  switch (command) {
    case 'roundtrip':
      return serializeMarkdown(parseMarkdown(decodeMarkdownFile(input)));
    case 'to-json':
      return `${JSON.stringify(parseMarkdown(decodeMarkdownFile(input)).toJSON())}\n`;
    case 'from-json': {
      const text = decodeMarkdownFile(input, MARKDOWN_IMPORT_LIMIT);
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch (error) {
        throw new Error(`The input is not valid JSON: ${(error as Error).message}`, {
          cause: error,
        });
      }
      const schema = inkwellSchema();
      let doc;
      try {
        const clean = sanitizeDocJson(json);
        if (!clean) throw new Error('the top node must be a "doc"');
        doc = schema.nodeFromJSON(clean);
        doc.check();
      } catch (error) {
        throw new Error(`The input is not an Inkwell document: ${(error as Error).message}`, {
          cause: error,
        });
      }
      return serializeMarkdown(doc);
    }
    default:
      throw new Error(USAGE);
  }
}

function main(): void {
  const command = process.argv[2];
  try {
    const input = new Uint8Array(readFileSync(0));
    process.stdout.write(runCommand(command, input));
  } catch (error) {
    process.stderr.write(`md: ${(error as Error).message}\n`);
    process.exitCode = 1;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) main();
