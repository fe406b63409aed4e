import { Editor } from '@tiptap/core';
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { useEffect, useRef } from 'react';
import { documentViewExtensions } from '../editor/editorExtensions.ts';
import { openIn } from '../editor/openIn.ts';

/** Props of {@link VersionPreview}. */
export interface VersionPreviewProps {
  /** The version's content, checked (checkContent), in the shared schema. */
  content: ProseMirrorNode;
  /** The accessible name of the shown document. */
  label: string;
}

/**
 * A version drawn as the editor draws a document (its node views: tables, callouts, math,
 * images, rendered HTML), in a read-only editor of its own with no editing behaviour at all.
 * None of those node views is a React one, so the editor is mounted directly, without
 * EditorContent.
 */
export function VersionPreview({ content, label }: VersionPreviewProps) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const editor = new Editor({
      element,
      content: null,
      editable: false,
      // Tiptap's base styles are in styles/prosemirror.css: an injected <style> breaks under CSP.
      injectCSS: false,
      extensions: documentViewExtensions(),
      editorProps: {
        attributes: { class: 'ink-prose', 'aria-label': label, 'aria-readonly': 'true' },
      },
    });
    // Opened once mounted, as the page's editor is: the node views are there to draw it once.
    openIn(editor, content);
    return () => editor.destroy();
  }, [content, label]);
  return (
    <div className="ink-editor ink-history__document">
      <div ref={host} className="ink-editor__content" />
    </div>
  );
}
