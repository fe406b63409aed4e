import { Editor } from '@tiptap/core';
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import type { Transaction } from '@tiptap/pm/state';
import { useEffect, useRef, useState } from 'react';
import { documentViewExtensions } from '../editor/editorExtensions.ts';
import { drawInSlices, type Drawing } from './drawInSlices.ts';
import type { AuthorshipResponse } from '../../../common/api/versions.ts';
import { AuthorshipView } from './authorship/AuthorshipView.ts';
import type { Change } from './compare/compareDocuments.ts';
import {
  changeStart,
  comparisonKey,
  ComparisonView,
  type ComparisonMeta,
} from './compare/ComparisonView.ts';

const NO_CHANGES: readonly Change[] = [];

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
 * EditorContent. The same editor shows the version and then a comparison of it: only the blocks
 * that differ are drawn again.
 */
export function VersionPreview(props: VersionPreviewProps) {
  const { content, label, changes = NO_CHANGES, current = -1, authorship } = props;
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
        ComparisonView,
        ...(authorship ? [AuthorshipView(authorship)] : []),
      ],
      editorProps: { attributes: { class: 'ink-prose', 'aria-readonly': 'true' } },
    });
    editorRef.current = editor;
    return () => {
      drawingRef.current?.cancel();
      drawingRef.current = null;
      editorRef.current = null;
      editor.destroy();
    };
  }, [authorship]);

  useEffect(() => {
    editorRef.current?.view.dom.setAttribute('aria-label', label);
  }, [label, authorship]);

  useEffect(() => {
    const editor = editorRef.current;
    if (!editor) return;
    setDrawing(true);
    const drawn = () => setDrawing(false);
    const prepare = (tr: Transaction) =>
      tr.setMeta(comparisonKey, { changes } satisfies ComparisonMeta);
    // Opened once mounted, as the page's editor is: the node views are there to draw it once.
    if (drawingRef.current) drawingRef.current.show(content, drawn, prepare);
    else drawingRef.current = drawInSlices(editor, content, drawn, prepare);
  }, [content, changes, authorship]);

  useEffect(() => {
    const editor = editorRef.current;
    const change = changes[current];
    if (!editor || changes.length === 0) return;
    // A change further on than drawn so far: the rest is drawn now, to show it.
    if (change) drawingRef.current?.finish();
    editor.view.dispatch(
      editor.state.tr.setMeta(comparisonKey, { current } satisfies ComparisonMeta),
    );
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
