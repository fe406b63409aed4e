import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { checkLocalCopy, readableUpdates } from './localCopyCheck.ts';

/** An update that makes a paragraph holding `text`. */
function update(text: string): Uint8Array {
  const doc = new Y.Doc();
  const paragraph = new Y.XmlElement('paragraph');
  doc.getXmlFragment('default').insert(0, [paragraph]);
  paragraph.insert(0, [new Y.XmlText(text)]);
  return Y.encodeStateAsUpdate(doc);
}

/** A record cut short, as a broken write leaves it. */
const truncated = () => update('lost').slice(0, 12);

/** A request whose success handler runs on the next microtask with `result`. */
function succeed<T>(result: T): IDBRequest<T> {
  const request = { result } as { result: T; onsuccess?: () => void };
  queueMicrotask(() => request.onsuccess?.());
  return request as unknown as IDBRequest<T>;
}

/** An IDBFactory holding y-indexeddb databases (name → update records), enough for the check. */
function fakeFactory(copies: Record<string, unknown[]>) {
  const held = new Map(Object.entries(copies));
  const opened: string[] = [];
  const factory = {
    databases: async () => [...held.keys()].map((name) => ({ name, version: 1 })),
    open: (name: string) => {
      opened.push(name);
      const records = held.get(name) ?? [];
      const db = {
        objectStoreNames: { contains: (store: string) => store === 'updates' },
        transaction: () => ({ objectStore: () => ({ getAll: () => succeed(records) }) }),
        close: () => undefined,
      };
      return succeed(db);
    },
    deleteDatabase: (name: string) => {
      held.delete(name);
      return succeed(undefined);
    },
  };
  return { factory: factory as unknown as IDBFactory, held, opened };
}

describe("this device's copy of a shared document", () => {
  it('is deleted when a record cannot be read, and the check does not reject', async () => {
    const { factory, held } = fakeFactory({
      broken: [update('kept'), truncated()],
      other: [update('other')],
    });
    await expect(checkLocalCopy('broken', factory)).resolves.toBe('deleted');
    expect([...held.keys()]).toEqual(['other']);
  });

  it('is deleted when a record is not an update at all', async () => {
    const { factory, held } = fakeFactory({ odd: ['text'] });
    await expect(checkLocalCopy('odd', factory)).resolves.toBe('deleted');
    expect(held.size).toBe(0);
  });

  it('is kept when every record applies', async () => {
    const { factory, held } = fakeFactory({ fine: [update('a'), update('b')] });
    await expect(checkLocalCopy('fine', factory)).resolves.toBe('readable');
    expect([...held.keys()]).toEqual(['fine']);
  });

  it('is not created by the check when the device has none', async () => {
    const { factory, opened } = fakeFactory({});
    await expect(checkLocalCopy('none', factory)).resolves.toBe('readable');
    expect(opened).toEqual([]);
  });

  it('is deleted when IndexedDB fails to list or open it, without a rejection', async () => {
    const { factory, held } = fakeFactory({ copy: [update('a')] });
    const failing = Object.assign(Object.create(factory) as IDBFactory, {
      open: () => {
        throw new DOMException('broken', 'UnknownError');
      },
    });
    await expect(checkLocalCopy('copy', failing)).resolves.toBe('deleted');
    expect(held.size).toBe(0);
  });

  it('reads as readable only when every update applies', () => {
    expect(readableUpdates([update('a')])).toBe(true);
    expect(readableUpdates([update('a'), truncated()])).toBe(false);
  });
});
