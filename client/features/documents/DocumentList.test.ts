import { describe, expect, it, vi } from 'vitest';
import type { DocumentSummary } from '../../../common/api/documents.ts';
import { DocumentList } from './DocumentList.ts';

const row = (id: string, updatedAt: string, fields: Partial<DocumentSummary> = {}) => ({
  id,
  title: `Title ${id}`,
  excerpt: '',
  version: 1,
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt,
  deletedAt: null,
  ...fields,
});

const a = row('a', '2025-01-03T00:00:00.000Z');
const b = row('b', '2025-01-02T00:00:00.000Z');

/** A list loaded with `rows`; `server.load` answers its later refreshes. */
async function loaded(rows: DocumentSummary[]) {
  const server = { load: async (): Promise<DocumentSummary[]> => rows };
  const list = new DocumentList(() => server.load());
  await list.refresh();
  const listener = vi.fn();
  list.subscribe(listener);
  return { list, listener, server };
}

const ids = (list: DocumentList) => list.getState().documents.map((doc) => doc.id);

describe('DocumentList', () => {
  it('loads the list and shares one request between concurrent refreshes', async () => {
    const load = vi.fn(async () => [a, b]);
    const list = new DocumentList(load);
    expect(list.getState().status).toBe('loading');
    await Promise.all([list.refresh(), list.refresh()]);
    expect(load).toHaveBeenCalledTimes(1);
    expect(list.getState()).toMatchObject({ status: 'ready' });
    expect(ids(list)).toEqual(['a', 'b']);
  });

  it('moves a saved document to the top', async () => {
    const { list, listener } = await loaded([a, b]);
    list.update('b', { title: 'B', updatedAt: '2025-01-04T00:00:00.000Z', version: 2 });
    expect(ids(list)).toEqual(['b', 'a']);
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('keeps quiet about a save that changes nothing shown', async () => {
    const { list, listener } = await loaded([a, b]);
    const before = list.getState();
    list.update('a', { updatedAt: '2025-01-05T00:00:00.000Z', version: 2 });
    expect(listener).not.toHaveBeenCalled();
    // The row still holds the new version for the next render.
    expect(list.getState()).not.toBe(before);
    expect(list.getState().documents[0]?.version).toBe(2);
  });

  it('tells subscribers about a new title of the first row', async () => {
    const { list, listener } = await loaded([a, b]);
    list.update('a', { title: 'Renamed', version: 2 });
    expect(listener).toHaveBeenCalledTimes(1);
    expect(list.getState().documents[0]?.title).toBe('Renamed');
  });

  it('does not let an older answer undo a save, creation or deletion made meanwhile', async () => {
    let answer: (rows: DocumentSummary[]) => void = () => undefined;
    const { list, server } = await loaded([a, b]);
    server.load = () => new Promise((resolve) => (answer = resolve));
    const refreshing = list.refresh();
    const c = row('c', '2025-01-06T00:00:00.000Z');
    list.add(c);
    list.remove('b');
    list.update('a', { title: 'Saved here', version: 5, updatedAt: '2025-01-05T00:00:00.000Z' });
    answer([a, b]);
    await refreshing;
    expect(ids(list)).toEqual(['c', 'a']);
    expect(list.getState().documents[1]?.title).toBe('Saved here');
  });

  it('keeps a list already shown when a refresh fails, and reports a failed first load', async () => {
    const failing = new DocumentList(async () => {
      throw new Error('offline');
    });
    await failing.refresh();
    expect(failing.getState().status).toBe('error');

    const { list, server } = await loaded([a]);
    server.load = async () => {
      throw new Error('offline');
    };
    await list.refresh();
    expect(list.getState()).toMatchObject({ status: 'ready', documents: [a] });
  });
});

describe('DocumentList with a document the server does not have yet', () => {
  it('keeps a pending document through refreshes until the server has it', async () => {
    const { list, server } = await loaded([a, b]);
    const imported = row('imported', '2025-01-06T00:00:00.000Z');
    list.add(imported, { pending: true });
    // A refresh that starts after the add and answers before the create arrives.
    await list.refresh();
    expect(ids(list)).toEqual(['imported', 'a', 'b']);
    list.confirm('imported');
    server.load = async () => [a, b];
    await list.refresh();
    expect(ids(list)).toEqual(['a', 'b']);
  });

  it('drops a pending document that is removed (its create was refused)', async () => {
    const { list } = await loaded([a, b]);
    list.add(row('refused', '2025-01-06T00:00:00.000Z'), { pending: true });
    list.remove('refused');
    await list.refresh();
    expect(ids(list)).toEqual(['a', 'b']);
  });
});
