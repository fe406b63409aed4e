import type { JSONContent } from '@tiptap/core';
import type { DocumentContent } from '../common/api/documents.ts';
import { parseMarkdown } from '../common/editor/markdown/index.ts';
import { createSession, upsertUser } from '../server/auth/sessions.ts';
import type { Database } from '../server/db/database.ts';
import { DocumentStore } from '../server/documents/documentStore.ts';
import { validateContent } from '../server/documents/validateContent.ts';
import type { SaveBody } from './saveLoad.ts';

/** Issuer of the bench's users, which no provider will ever sign in. */
const BENCH_ISSUER = 'https://bench.inkwell.invalid';

/** What the database holds for one simulated writer. */
export interface SeededWriter {
  /** The cookie value of its session. */
  sessionToken: string;
  /** The document Inkwell saves into. */
  inkwellDocumentId: string;
  /** A document of its own, identical at the start, which the bare route saves into. */
  bareDocumentId: string;
}

/** Words per paragraph and paragraphs per section of `proseOfSize`: a chapter, not a README. */
const PARAGRAPH_WORDS = 120;
const SECTION_PARAGRAPHS = 8;

/** A paragraph of `words`, with one phrase in bold, italic or a link now and then, as writers mark. */
function paragraph(words: string[], index: number): JSONContent {
  const text = (part: string[], marks?: JSONContent['marks']): JSONContent =>
    marks ? { type: 'text', text: part.join(' '), marks } : { type: 'text', text: part.join(' ') };
  const marks: JSONContent['marks'][] = [
    [{ type: 'bold' }],
    [{ type: 'italic' }],
    [{ type: 'link', attrs: { href: `https://example.com/notes/${index}` } }],
  ];
  const mark = index % 2 === 0 ? marks[(index / 2) % marks.length] : undefined;
  const content = mark
    ? [
        text(words.slice(0, 40)),
        { type: 'text', text: ' ' },
        text(words.slice(40, 44), mark),
        { type: 'text', text: ' ' },
        text(words.slice(44)),
      ]
    : [text(words)];
  return { type: 'paragraph', content };
}

/**
 * Prose of nearly `bytes` of JSON, from the words of a fixture: paragraphs of 120 words, a heading
 * before every eighth, a phrase in bold, italic or a link in every other one. The fixtures
 * themselves are READMEs, whose lists and links make JSON six times the size of their text; a
 * writer's document is mostly text, which is what the search column is computed from.
 */
export function proseOfSize(markdown: string, bytes: number): DocumentContent {
  const doc = parseMarkdown(markdown);
  const words = doc.textBetween(0, doc.content.size, ' ', ' ').match(/[\p{L}\p{N}][^\s]*/gu) ?? [];
  const blocks: JSONContent[] = [];
  // The envelope `{"type":"doc","content":[]}`, then each block and its comma.
  let size = 27;
  let next = 0;
  const take = (count: number) => {
    const taken = words.slice(next, next + count);
    next += count;
    return taken;
  };
  for (let index = 0; next + PARAGRAPH_WORDS <= words.length; index++) {
    const block =
      index % (SECTION_PARAGRAPHS + 1) === 0
        ? {
            type: 'heading',
            attrs: { level: 2 },
            content: [{ type: 'text', text: take(5).join(' ') }],
          }
        : paragraph(take(PARAGRAPH_WORDS), index);
    const blockBytes = Buffer.byteLength(JSON.stringify(block)) + 1;
    if (size + blockBytes > bytes) break;
    blocks.push(block);
    size += blockBytes;
  }
  return { type: 'doc', content: blocks };
}

/**
 * Save bodies of `content` with a first paragraph naming the writer and the save, built by
 * concatenation: the load generator shares the CPU with the servers and should spend little.
 */
export function saveBodies(content: DocumentContent): SaveBody {
  const rest = JSON.stringify(content.content ?? []).slice(1);
  return (writer, index) => {
    const line = JSON.stringify({
      type: 'paragraph',
      content: [{ type: 'text', text: `Writer ${index}, save ${writer.saves}.` }],
    });
    return `{"baseVersion":${writer.version},"content":{"type":"doc","content":[${line},${rest}}}`;
  };
}

/**
 * Creates `count` users, each with a session and two copies of `content` (one for Inkwell, one
 * for the bare route), straight in the database: signing up through the provider costs ~0.3 s each.
 */
export async function seedWriters(
  db: Database,
  count: number,
  content: DocumentContent,
): Promise<SeededWriter[]> {
  // Stored as Inkwell stores a save, plain text and search column included, so both routes start
  // from the same rows.
  const valid = validateContent(content);
  const store = new DocumentStore(db);
  const writers: SeededWriter[] = [];
  for (let i = 0; i < count; i++) {
    const user = await upsertUser(db, {
      issuer: BENCH_ISSUER,
      subject: `writer-${i}`,
      email: `writer-${i}@bench.invalid`,
      name: `Writer ${i}`,
    });
    const sessionToken = await createSession(db, {
      userId: user.id,
      days: 30,
      userAgent: 'inkwell-bench',
      idToken: undefined,
    });
    const inkwell = await store.create(user.id, `Autosave ${i}`, valid);
    const bare = await store.create(user.id, `Autosave ${i} (bare)`, valid);
    writers.push({ sessionToken, inkwellDocumentId: inkwell.id, bareDocumentId: bare.id });
  }
  return writers;
}
