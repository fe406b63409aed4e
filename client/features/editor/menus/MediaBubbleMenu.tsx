import type { Editor } from '@tiptap/core';
import { useEditorState } from '@tiptap/react';
import { BubbleMenu, type BubbleMenuProps } from '@tiptap/react/menus';
import {
  lazy,
  Suspense,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  type FocusEvent,
  type KeyboardEvent,
} from 'react';
import {
  hideWhenFocusLeaves,
  editorOrMenuHasFocus,
  keepEditorFocus,
  selectedMediaNode,
  sendBubbleRequest,
  useBubbleResize,
  useHideOnOutsidePress,
} from './bubble.ts';
import { readMediaTarget } from './mediaTarget.ts';
import { useMenuRequests } from './useMenuRequests.ts';

const MediaFields = lazy(() =>
  import('./MediaFields.tsx').then((m) => ({ default: m.MediaFields })),
);

const PLUGIN_KEY = 'inkwellMediaMenu';

type ShouldShow = NonNullable<BubbleMenuProps['shouldShow']>;

const shouldShow: ShouldShow = ({ editor, view, state, element }) =>
  editorOrMenuHasFocus(view, element) && editor.isEditable && selectedMediaNode(state) !== null;

/** The small menu of a selected image or video: its alt text, title, start time and size. */
export function MediaBubbleMenu({ editor }: { editor: Editor }) {
  const target = useEditorState({ editor, selector: ({ editor: e }) => readMediaTarget(e.state) });
  const anchor = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  useBubbleResize(editor, PLUGIN_KEY, content);
  useHideOnOutsidePress(editor, PLUGIN_KEY, content);

  useEffect(() => {
    // The plugin makes its element a tab stop; the fields inside already are.
    anchor.current?.setAttribute('tabindex', '-1');
  }, [editor]);

  const options = useMemo<BubbleMenuProps['options']>(
    () => ({
      placement: 'bottom',
      offset: 8,
      flip: { padding: 8 },
      shift: { padding: 8 },
      onShow: () => void import('./MediaFields.tsx'),
    }),
    [],
  );

  useMenuRequests(editor, (request) => {
    if (request !== 'focus' || !selectedMediaNode(editor.state)) return false;
    const first = content.current?.querySelector<HTMLElement>('input, button');
    first?.focus();
    return first !== undefined && first !== null;
  });

  const backToEditor = useCallback(() => editor.view.focus(), [editor]);

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    backToEditor();
  };

  const onBlur = (event: FocusEvent) =>
    hideWhenFocusLeaves(event, editor, content, () =>
      sendBubbleRequest(editor, PLUGIN_KEY, 'hide'),
    );

  return (
    <BubbleMenu
      ref={anchor}
      editor={editor}
      pluginKey={PLUGIN_KEY}
      shouldShow={shouldShow}
      options={options}
      className="ink-bubble-anchor"
    >
      <div
        ref={content}
        className="ink-bubble"
        onKeyDown={onKeyDown}
        onBlur={onBlur}
        onMouseDown={keepEditorFocus}
      >
        {target && (
          <Suspense fallback={null}>
            <MediaFields
              key={`${target.pos}:${target.type}`}
              editor={editor}
              target={target}
              onDone={backToEditor}
            />
          </Suspense>
        )}
      </div>
    </BubbleMenu>
  );
}
