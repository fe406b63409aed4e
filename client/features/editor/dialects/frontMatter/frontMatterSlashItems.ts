import type { SlashItem } from '../../slash/slashItems.ts';
import { FRONT_MATTER } from '../../../../../common/editor/dialects/frontMatter/FrontMatter.ts';
import { isChunk } from '../../chunks/chunks.ts';

/** The slash menu's Properties entry: adds empty front matter at the top, if there is none. */
export const frontMatterSlashItems: SlashItem[] = [
  {
    id: 'properties',
    title: 'Properties',
    description: 'Keys and values at the top (front matter)',
    keywords: ['properties', 'front matter', 'frontmatter', 'yaml', 'metadata', 'tags', '---'],
    icon: '≔',
    run: ({ editor, range }) => {
      const type = editor.schema.nodes[FRONT_MATTER];
      editor
        .chain()
        .focus()
        .deleteRange(range)
        .command(({ tr }) => {
          const chunked = isChunk(tr.doc.firstChild);
          const first = chunked ? tr.doc.firstChild?.firstChild : tr.doc.firstChild;
          if (!type || first?.type === type) return true;
          tr.insert(chunked ? 1 : 0, type.create());
          return true;
        })
        .run();
    },
  },
];
