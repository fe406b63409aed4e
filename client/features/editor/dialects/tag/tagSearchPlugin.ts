import { Plugin } from '@tiptap/pm/state';
import { requestSearch } from '../../../documents/searchRequest.ts';

/** A click on a `#tag` searches the writer's documents for it, in the sidebar. */
export const tagSearchPlugin = () =>
  new Plugin({
    props: {
      handleClickOn(_view, _pos, node) {
        if (node.type.name !== 'tag') return false;
        requestSearch(`#${String(node.attrs.name)}`);
        return true;
      },
    },
  });
