import type { SlashItem } from '../../slash/slashItems.ts';
import '../../../../../common/editor/dialects/callout/Callout.ts';

/** The slash menu's callout entry: wraps the cursor's block in a note callout. */
export const calloutSlashItems: SlashItem[] = [
  {
    id: 'callout',
    title: 'Callout',
    description: 'Highlighted note, tip or warning',
    keywords: ['callout', 'alert', 'admonition', 'note', 'tip', 'warning', 'info', '[!'],
    icon: 'ℹ\uFE0E',
    run: ({ editor, range }) =>
      editor.chain().focus().deleteRange(range).setCallout({ type: 'note' }).run(),
  },
];
