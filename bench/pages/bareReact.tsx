import { EditorContent, useEditor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Markdown } from 'tiptap-markdown';

// The smallest fair React editor with Markdown: the bundle Inkwell's editor route is compared with.
function BareEditor() {
  const editor = useEditor({
    extensions: [
      StarterKit,
      Markdown.configure({ html: true, tightLists: true, linkify: false, breaks: false }),
    ],
    content: '# Hello\n\nA *bare* editor.',
  });
  return <EditorContent editor={editor} />;
}

const root = document.querySelector('#root');
if (!root) throw new Error('bareReact.html has no #root');

createRoot(root).render(
  <StrictMode>
    <BareEditor />
  </StrictMode>,
);
