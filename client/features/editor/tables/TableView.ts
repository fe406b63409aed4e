import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import type { NodeView, ViewMutationRecord } from '@tiptap/pm/view';
import { columnStyle, tableColumns } from '../../../../common/editor/nodes/Table.ts';

/**
 * A table as the editor shows it: in a scrolling `div.tableWrapper`, with a `<colgroup>` kept in
 * step with its columns as they are added or removed. The DOM is that of Tiptap's table view, as
 * before; the view is Inkwell's own so that the page need not load Tiptap's table extension and
 * prosemirror-tables with it.
 */
export class TableView implements NodeView {
  readonly dom: HTMLDivElement;
  readonly contentDOM: HTMLTableSectionElement;
  private readonly table: HTMLTableElement;
  private readonly colgroup: HTMLTableColElement;

  constructor(
    private node: ProseMirrorNode,
    attributes: Record<string, unknown>,
  ) {
    this.dom = document.createElement('div');
    this.dom.className = 'tableWrapper';
    this.table = this.dom.appendChild(document.createElement('table'));
    for (const [key, value] of Object.entries(attributes)) {
      if (value === undefined || value === null) continue;
      if (key === 'style') this.table.style.cssText = String(value);
      else this.table.setAttribute(key, String(value));
    }
    const style: unknown = node.attrs.style;
    if (typeof style === 'string' && style) this.table.style.cssText = style;
    this.colgroup = this.table.appendChild(document.createElement('colgroup'));
    this.updateColumns();
    this.contentDOM = this.table.appendChild(document.createElement('tbody'));
  }

  update(node: ProseMirrorNode): boolean {
    if (node.type !== this.node.type) return false;
    this.node = node;
    this.updateColumns();
    return true;
  }

  /** Changes to the wrapper, table and colgroup are the view's own, not the document's. */
  ignoreMutation(mutation: ViewMutationRecord): boolean {
    if (mutation.type === 'selection') return false;
    const target = mutation.target;
    return this.dom.contains(target) && !this.contentDOM.contains(target);
  }

  private updateColumns(): void {
    const { widths, total, fixed } = tableColumns(this.node);
    const cols = this.colgroup.children;
    widths.forEach((width, index) => {
      const existing = cols[index] as HTMLTableColElement | undefined;
      const col = existing ?? this.colgroup.appendChild(document.createElement('col'));
      const cssWidth = width ? `${String(width)}px` : '';
      if (existing && existing.style.width === cssWidth) return;
      const [property, value] = columnStyle(width);
      col.style.setProperty(property, value);
    });
    while (cols.length > widths.length) this.colgroup.lastElementChild?.remove();
    const style: unknown = this.node.attrs.style;
    const userWidth = typeof style === 'string' && /\bwidth\s*:/i.test(style);
    this.table.style.width = fixed && !userWidth ? `${String(total)}px` : '';
    this.table.style.minWidth = fixed && !userWidth ? '' : `${String(total)}px`;
  }
}
