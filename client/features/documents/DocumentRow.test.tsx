// @vitest-environment jsdom
import { render } from 'preact';
import { afterEach, describe, expect, it } from 'vitest';
import type { DocumentSummary } from '../../../common/api/documents.ts';
import { DocumentRow } from './DocumentRow.tsx';

const summary: DocumentSummary = {
  id: '6f1c1f52-1d7e-4f43-9a4b-0a0c7b1d2e3f',
  title: 'Plans',
  excerpt: 'First words',
  version: 3,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-02T00:00:00.000Z',
  deletedAt: null,
};
const host = document.createElement('ul');

afterEach(() => render(null, host));

function row(document: DocumentSummary) {
  render(
    <DocumentRow summary={document} current={false} onTrash={() => {}} onOpen={() => {}} />,
    host,
  );
  return host;
}

describe('DocumentRow', () => {
  it('names the owner of a shared document, opens it at /d/:id, and offers no trash', () => {
    const shared = {
      ...summary,
      role: 'viewer' as const,
      owner: { name: 'Ada', email: 'a@x.org' },
    };
    const element = row(shared);
    expect(element.textContent).toContain('Shared by Ada');
    expect(element.querySelector('a')?.getAttribute('href')).toBe(`/d/${summary.id}`);
    expect(element.querySelector('button')).toBeNull();
  });

  it('offers the trash for a document of ones own, with no owner named', () => {
    const element = row(summary);
    expect(element.textContent).not.toContain('Shared by');
    expect(element.querySelector('button')?.getAttribute('aria-label')).toContain('trash');
  });
});
