import type { Attrs, Mark, Node as ProseMirrorNode } from '@tiptap/pm/model';

type AttributeSpecs = Readonly<Record<string, { default?: unknown } | undefined>> | undefined;

/** Whether `value` is the attribute's default: what `Node.fromJSON` fills in when it is absent. */
function isDefault(specs: AttributeSpecs, name: string, value: unknown): boolean {
  const spec = specs?.[name];
  if (!spec || !('default' in spec)) return false;
  if (value === spec.default) return true;
  // Object and array defaults are compared by value.
  return (
    typeof value === 'object' &&
    value !== null &&
    JSON.stringify(value) === JSON.stringify(spec.default)
  );
}

/** The attributes that differ from their defaults, or undefined when none do. */
function changedAttrs(attrs: Attrs, specs: AttributeSpecs): Record<string, unknown> | undefined {
  let changed: Record<string, unknown> | undefined;
  for (const name of Object.keys(attrs)) {
    const value = attrs[name];
    if (isDefault(specs, name, value)) continue;
    (changed ??= {})[name] = value;
  }
  return changed;
}

function markJson(mark: Mark): Record<string, unknown> {
  const json: Record<string, unknown> = { type: mark.type.name };
  const attrs = changedAttrs(mark.attrs, mark.type.spec.attrs);
  if (attrs) json.attrs = attrs;
  return json;
}

/**
 * `node.toJSON()` without the attributes that hold their default value, which `Node.fromJSON`
 * (the server's check and every reader) fills in again: the same document in far fewer bytes.
 * Every block carries several attributes that are null unless the Markdown said otherwise (the
 * syntax it was written in, a text alignment…); written out, they made a 1.7 MB Markdown file
 * 5.4 MB of JSON, over the document limit (docs/PRODUCT.md "Limits"), and 4.2 MB without them.
 */
export function compactJson(node: ProseMirrorNode): Record<string, unknown> {
  const json: Record<string, unknown> = { type: node.type.name };
  const attrs = changedAttrs(node.attrs, node.type.spec.attrs);
  if (attrs) json.attrs = attrs;
  if (node.content.size > 0) {
    const content: Record<string, unknown>[] = [];
    node.forEach((child) => content.push(compactJson(child)));
    json.content = content;
  }
  if (node.marks.length > 0) json.marks = node.marks.map(markJson);
  if (node.isText) json.text = node.text;
  return json;
}
