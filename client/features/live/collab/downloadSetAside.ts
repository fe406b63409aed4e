import { downloadText, fileNameForTitle } from '../../../lib/download.ts';
import type { Schema } from '@tiptap/pm/model';
import { loadMarkdownCodec } from '../../editor/markdown/codec.ts';

/**
 * Saves a set-aside device copy (setAsideCopy.ts) as a Markdown file, so the writer can take back
 * what it held. The binding and the codec load on use: this is rare.
 */
export async function downloadSetAside(
  update: Uint8Array,
  schema: Schema,
  title: string,
): Promise<void> {
  const [{ setAsideContent }, { serializeMarkdown }] = await Promise.all([
    import('./setAsideCopy.ts'),
    loadMarkdownCodec(),
  ]);
  const markdown = serializeMarkdown(setAsideContent(update, schema));
  downloadText(
    fileNameForTitle(`${title.trim() || 'Untitled'} (set aside)`, 'md'),
    markdown,
    'text/markdown;charset=utf-8',
  );
}
