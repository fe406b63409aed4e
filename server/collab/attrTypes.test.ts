import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import type { DocumentContent, DocumentRecord } from '../../common/api/documents.ts';
import { CARRIED_MARKS } from '../../common/editor/collab/inlineMarks.ts';
import { inkwellSchema } from '../../common/editor/extensions.ts';
import { attributeSites, wrongValues } from '../../common/test/attributeSites.ts';
import { describeWithServer, signedInUser } from '../test/testServer.ts';
import { SchemaGuard } from './schemaGuard.ts';
import { appendParagraph, useLiveClients } from './test/collabClient.ts';
import { CONTENT_FIELD, yDocFromContent } from './yjsContent.ts';

const SCRIPT = ['javascript:alert(1)'];
const paragraphs = (...texts: string[]): DocumentContent => ({
  type: 'doc',
  content: texts.map((text) => ({ type: 'paragraph', content: [{ type: 'text', text }] })),
});

/** Why the guard of an empty document refuses `doc`'s whole state, as a create's or a first sync's. */
function stateProblem(doc: Y.Doc): string | null {
  const empty = Y.encodeStateAsUpdate(new Y.Doc());
  const guard = new SchemaGuard(inkwellSchema(), () => empty);
  try {
    return guard.check(Y.encodeStateAsUpdate(doc)).problem;
  } finally {
    guard.destroy();
  }
}

/** Why the guard of a live document of `blocks` refuses the update `change` makes on a copy. */
function updateProblem(
  content: DocumentContent,
  change: (fragment: Y.XmlFragment) => void,
): string | null {
  const live = yDocFromContent(content);
  const guard = new SchemaGuard(inkwellSchema(), () => Y.encodeStateAsUpdate(live));
  const client = new Y.Doc();
  Y.applyUpdate(client, Y.encodeStateAsUpdate(live));
  const before = Y.encodeStateVector(client);
  client.transact(() => change(client.getXmlFragment(CONTENT_FIELD)));
  try {
    return guard.check(Y.encodeStateAsUpdate(client, before)).problem;
  } finally {
    guard.destroy();
  }
}

const firstText = (fragment: Y.XmlFragment) =>
  (fragment.get(0) as Y.XmlElement).get(0) as Y.XmlText;

describe('the schema guard and the type of every attribute', () => {
  it('refuses every attribute of every node and mark of a state given a value of another type', () => {
    let refused = 0;
    for (const site of attributeSites()) {
      const name = `${site.type}.${site.attribute}`;
      expect(stateProblem(yDocFromContent(site.document)), name).toBeNull();
      // y-tiptap writes no null attribute; a null one is below.
      for (const value of wrongValues(site).filter((wrong) => wrong !== null)) {
        const doc = yDocFromContent(site.set(value));
        expect(stateProblem(doc), `${name} = ${JSON.stringify(value)}`).toContain(
          `${name} must be`,
        );
        refused++;
      }
    }
    expect(refused).toBeGreaterThan(300);
  });

  it('refuses an update that links text to a list holding a script URL', () => {
    const problem = updateProblem(paragraphs('click here'), (fragment) =>
      firstText(fragment).format(0, 5, { link: { href: SCRIPT } }),
    );
    expect(problem).toBe('link.href must be a string or null, not a list.');
  });

  it('refuses such a link carried by an inline image, as a README badge carries its link', () => {
    const problem = updateProblem(paragraphs('badge'), (fragment) => {
      const image = new Y.XmlElement('inlineImage');
      image.setAttribute('src', 'https://example.com/badge.svg');
      image.setAttribute(
        CARRIED_MARKS,
        JSON.stringify([{ type: 'link', attrs: { href: SCRIPT } }]),
      );
      (fragment.get(0) as Y.XmlElement).insert(1, [image]);
    });
    expect(problem).toBe('link.href must be a string or null, not a list.');
  });

  it.each<[string, string, unknown, (fragment: Y.XmlFragment, value: unknown) => void]>([
    [
      'a heading level set to a string',
      'heading.level',
      '2',
      (fragment, value) => {
        const heading = new Y.XmlElement('heading');
        heading.setAttribute('level', value as string);
        heading.insert(0, [new Y.XmlText('Title')]);
        fragment.insert(1, [heading]);
      },
    ],
    [
      'a code block language set to an object',
      'codeBlock.language',
      { name: 'ts' },
      (fragment, value) => {
        const code = new Y.XmlElement('codeBlock');
        code.setAttribute('language', value as string);
        fragment.insert(1, [code]);
      },
    ],
    [
      'an image source set to a list',
      'image.src',
      SCRIPT,
      (fragment, value) => {
        const image = new Y.XmlElement('image');
        image.setAttribute('src', value as string);
        fragment.insert(1, [image]);
      },
    ],
    [
      'a task set to null rather than done or not',
      'taskItem.checked',
      null,
      (fragment, value) => {
        const task = new Y.XmlElement('taskItem');
        task.setAttribute('checked', value as string);
        task.insert(0, [new Y.XmlElement('paragraph')]);
        const list = new Y.XmlElement('taskList');
        list.insert(0, [task]);
        fragment.insert(1, [list]);
      },
    ],
    [
      'a colour of a list',
      'textStyle.color',
      ['red'],
      (fragment, value) => firstText(fragment).format(0, 2, { textStyle: { color: value } }),
    ],
  ])('refuses %s', (_, attribute, value, change) => {
    const problem = updateProblem(paragraphs('text'), (fragment) => change(fragment, value));
    expect(problem).toContain(`${attribute} must be`);
  });
});

const { live } = useLiveClients();

describeWithServer('mistyped attributes on the live socket', (context) => {
  it('closes a socket whose update links text to a list, and keeps the document as it was', async () => {
    const { server, db } = context();
    const { client } = await signedInUser(server, db);
    const res = await client.request('POST', '/api/documents', {
      json: { title: 'Live', content: paragraphs('click here') },
    });
    const { document } = (await res.json()) as { document: DocumentRecord };
    const watcher = live(client, document.id);
    const hostile = live(client, document.id);
    await Promise.all([watcher.synced, hostile.synced]);
    firstText(hostile.doc.getXmlFragment(CONTENT_FIELD)).format(0, 5, {
      link: { href: SCRIPT },
    });
    expect(await hostile.closed).toBe(1008);
    appendParagraph(watcher, 'still fine');
    await watcher.saved();
    const read = await client.request('GET', `/api/documents/${document.id}`);
    const { document: stored } = (await read.json()) as { document: DocumentRecord };
    expect(stored.content).toEqual(paragraphs('click here', 'still fine'));
  });

  it('refuses a create whose shared state holds such a link', async () => {
    const { server, db } = context();
    const { client } = await signedInUser(server, db);
    const made = yDocFromContent(paragraphs('click here'));
    firstText(made.getXmlFragment(CONTENT_FIELD)).format(0, 5, { link: { href: SCRIPT } });
    const res = await client.request('POST', '/api/documents', {
      json: {
        id: randomUUID(),
        title: 'Made here',
        yjsState: Buffer.from(Y.encodeStateAsUpdate(made)).toString('base64'),
      },
    });
    expect(res.status).toBe(422);
    const { error } = (await res.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe('invalid_document');
    expect(error.message).toContain('link.href must be a string or null, not a list.');
  });
});
