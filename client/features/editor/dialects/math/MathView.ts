import type { Editor } from '@tiptap/core';
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import type { NodeView } from '@tiptap/pm/view';
import { loadKatex } from './loadKatex.ts';

/** The event that asks a math node view to open its source (Enter on a selected formula). */
export const EDIT_MATH_EVENT = 'ink-edit-math';

/**
 * Math typeset with KaTeX (loaded on first use), its TeX shown as is until then or when it does
 * not parse. A click opens the source in place: Enter (Mod-Enter in a block) or leaving the field
 * keeps the change, Escape drops it. The source is only ever replaced by what the writer typed.
 */
export class MathView implements NodeView {
  readonly dom: HTMLElement;
  private node: ProseMirrorNode;
  private readonly editor: Editor;
  private readonly getPos: () => number | undefined;
  private readonly rendered: HTMLElement;
  private field: HTMLInputElement | HTMLTextAreaElement | null = null;
  private version = 0;
  private destroyed = false;

  constructor(node: ProseMirrorNode, editor: Editor, getPos: () => number | undefined) {
    this.node = node;
    this.editor = editor;
    this.getPos = getPos;
    const block = node.type.name === 'mathBlock';
    this.dom = document.createElement(block ? 'div' : 'span');
    this.dom.className = `ink-math ${block ? 'ink-math--block' : 'ink-math--inline'}`;
    this.dom.setAttribute(block ? 'data-math-block' : 'data-math-inline', '');
    this.rendered = document.createElement(block ? 'div' : 'span');
    this.rendered.className = 'ink-math__rendered';
    this.dom.append(this.rendered);
    this.dom.addEventListener('mousedown', (event) => {
      if (this.field || !this.editor.isEditable || event.button !== 0) return;
      event.preventDefault();
      this.openSource();
    });
    this.dom.addEventListener(EDIT_MATH_EVENT, () => {
      if (!this.field && this.editor.isEditable) this.openSource();
    });
    this.render();
    // A new, empty formula (from the slash menu) opens its source at once: after the frame in
    // which the command that inserted it gives the editor its focus back.
    if (node.attrs.tex === '' && editor.isEditable) {
      requestAnimationFrame(() =>
        requestAnimationFrame(() => {
          if (!this.destroyed && !this.field) this.openSource();
        }),
      );
    }
  }

  private get display(): boolean {
    return this.node.type.name === 'mathBlock' || this.node.attrs.display === true;
  }

  private render(): void {
    const tex = String(this.node.attrs.tex ?? '');
    const version = ++this.version;
    this.dom.title = tex;
    this.dom.classList.toggle('ink-math--display', this.display);
    this.rendered.classList.add('ink-math__rendered--source');
    this.rendered.textContent = tex;
    loadKatex().then(
      (katex) => {
        if (version !== this.version) return;
        try {
          katex.render(tex, this.rendered, {
            displayMode: this.display,
            throwOnError: true,
            trust: false,
            output: 'htmlAndMathml',
          });
          this.rendered.classList.remove('ink-math__rendered--source');
          this.dom.classList.remove('ink-math--error');
        } catch {
          // TeX that KaTeX cannot read stays visible as its source, marked, never dropped.
          this.rendered.textContent = tex;
          this.dom.classList.add('ink-math--error');
        }
      },
      () => undefined,
    );
  }

  private openSource(): void {
    const block = this.node.type.name === 'mathBlock';
    const field = document.createElement(block ? 'textarea' : 'input');
    field.className = 'ink-math__source';
    field.value = String(this.node.attrs.tex ?? '');
    field.setAttribute('aria-label', 'TeX source');
    field.spellcheck = false;
    if (field instanceof HTMLTextAreaElement)
      field.rows = Math.max(2, field.value.split('\n').length);
    else field.size = Math.max(4, field.value.length + 1);
    this.field = field;
    this.dom.classList.add('ink-math--editing');
    this.dom.append(field);
    const element: HTMLElement = field;
    element.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        this.closeSource(false);
      } else if (event.key === 'Enter' && (!block || event.metaKey || event.ctrlKey)) {
        event.preventDefault();
        this.closeSource(true);
      }
    });
    field.addEventListener('input', () => {
      if (field instanceof HTMLInputElement) field.size = Math.max(4, field.value.length + 1);
    });
    field.addEventListener('blur', () => this.closeSource(true));
    field.focus();
  }

  private closeSource(keep: boolean): void {
    const field = this.field;
    if (!field) return;
    this.field = null;
    field.remove();
    this.dom.classList.remove('ink-math--editing');
    const pos = this.getPos();
    const tex = keep ? field.value : String(this.node.attrs.tex);
    const { view } = this.editor;
    if (pos !== undefined && tex.trim() === '') {
      // An empty formula would be written as `$$`, which reads back as text: it goes.
      view.dispatch(view.state.tr.delete(pos, pos + this.node.nodeSize));
    } else if (pos !== undefined && tex !== this.node.attrs.tex) {
      view.dispatch(view.state.tr.setNodeMarkup(pos, undefined, { ...this.node.attrs, tex }));
    }
    this.editor.commands.focus();
  }

  update(node: ProseMirrorNode): boolean {
    if (node.type !== this.node.type) return false;
    const changed =
      node.attrs.tex !== this.node.attrs.tex || node.attrs.display !== this.node.attrs.display;
    this.node = node;
    if (changed) this.render();
    return true;
  }

  selectNode(): void {
    this.dom.classList.add('ProseMirror-selectednode');
  }

  deselectNode(): void {
    this.dom.classList.remove('ProseMirror-selectednode');
  }

  stopEvent(event: Event): boolean {
    return this.field !== null && event.target === this.field;
  }

  ignoreMutation(): boolean {
    return true;
  }

  destroy(): void {
    this.destroyed = true;
    this.version++;
    this.field = null;
  }
}
