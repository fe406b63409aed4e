import { Editor } from '@tiptap/core';
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { useEffect, useRef, useState } from 'react';
import { documentViewExtensions } from '../editor/editorExtensions.ts';
import { drawInSlices, type Drawing } from './drawInSlices.ts';
import type { AuthorshipResponse } from '../../../common/api/versions.ts';
import { AuthorshipView } from './authorship/AuthorshipView.ts';
import type { Change } from './compare/compareDocuments.ts';
import { changeStart, comparisonKey, ComparisonView } from './compare/ComparisonView.ts';

/** Props of {@link VersionPreview}. */
export interface VersionPreviewProps {
  /** The version's content, checked (checkContent), in the shared schema. */
  content: ProseMirrorNode;
  /** The accessible name of the shown document. */
  label: string;
  /** When `content` is a comparison (compareDocuments.ts), its changes, drawn on it. */
  changes?: readonly Change[];
  /** The change stepped to, outlined and scrolled to; -1 for none. */
  current?: number;
  /** Who wrote `content`'s text, coloured on it (authorship/). */
  authorship?: Pick<AuthorshipResponse, 'authors' | 'runs'>;
}

/**
 * A version drawn as the editor draws a document (its node views: tables, callouts, math,
 * images, rendered HTML), in a read-only editor of its own with no editing behaviour at all.
 * None of those node views is a React one, so the editor is mounted directly, without
 * EditorContent.
 */
export function VersionPreview(props: VersionPreviewProps) {
  const { content, label, changes, current = -1, authorship } = props;
  const host = useRef<HTMLDivElement>(null);
  const editorRef = useRef<Editor | null>(null);
  const drawingRef = useRef<Drawing | null>(null);
  /** Whether parts of a long document are still being drawn (`aria-busy` meanwhile). */
  const [drawing, setDrawing] = useState(true);
  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const editor = new Editor({
      element,
      content: null,
      editable: false,
      // Tiptap's base styles are in styles/prosemirror.css: an injected <style> breaks under CSP.
      injectCSS: false,
      extensions: [
        ...documentViewExtensions(),
        ...(changes ? [ComparisonView(changes)] : []),
        ...(authorship ? [AuthorshipView(authorship)] : []),
      ],
      editorProps: {
        attributes: { class: 'ink-prose', 'aria-label': label, 'aria-readonly': 'true' },
      },
    });
    // Opened once mounted, as the page's editor is: the node views are there to draw it once.
    setDrawing(true);
    const drawing = drawInSlices(editor, content, () => setDrawing(false));
    drawingRef.current = drawing;
    editorRef.current = editor;
    return () => {
      drawing.cancel();
      drawingRef.current = null;
      editorRef.current = null;
      editor.destroy();
    };
  }, [content, label, changes, authorship]);

  useEffect(() => {
    const editor = editorRef.current;
    const change = changes?.[current];
    if (!editor || !changes) return;
    // A change further on than drawn so far: the rest is drawn now, to show it.
    if (change) drawingRef.current?.finish();
    editor.view.dispatch(editor.state.tr.setMeta(comparisonKey, current));
    const start = change ? changeStart(editor.state.doc, change) : null;
    if (start === null) return;
    // The node at the start when the change is a whole block; else the text around it.
    const node = editor.view.nodeDOM(start) ?? editor.view.domAtPos(start, 1).node;
    const element = node instanceof Element ? node : node.parentElement;
    element?.scrollIntoView?.({ block: 'center' });
  }, [changes, current]);

  return (
    <div className="ink-editor ink-history__document" aria-busy={drawing}>
      <div ref={host} className="ink-editor__content" />
    </div>
  );
}
