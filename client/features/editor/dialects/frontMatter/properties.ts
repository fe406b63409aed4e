import { isMap, isScalar, isSeq, parseDocument, type Document } from 'yaml';

/** How a property's value is shown and edited. */
export type PropertyKind = 'text' | 'list' | 'other';

/** One top-level key of the front matter, with its value as text. */
export interface Property {
  key: string;
  /** A scalar as written, a list of scalars joined with ", ", anything else as YAML. */
  value: string;
  /** `other` values (nested maps, lists of maps) are edited in the YAML source. */
  kind: PropertyKind;
}

/** The front matter read as properties, or why it cannot be (then it is edited as text). */
export type ReadProperties = { ok: true; properties: Property[] } | { ok: false; error: string };

/** No folding of long values, and flow lists written as Obsidian writes them: `[a, b]`. */
const TO_STRING = { lineWidth: 0, flowCollectionPadding: false } as const;

function load(yaml: string): Document.Parsed | string {
  const doc = parseDocument(yaml);
  if (doc.errors.length > 0) return doc.errors[0]!.message.split('\n')[0]!;
  if (doc.contents !== null && !isMap(doc.contents))
    return 'The front matter is not a list of keys and values.';
  return doc;
}

function scalarText(value: unknown): string {
  return value === null || value === undefined ? '' : String(value);
}

/** Reads the top-level keys and values of front matter YAML. */
export function readProperties(yaml: string): ReadProperties {
  const doc = load(yaml);
  if (typeof doc === 'string') return { ok: false, error: doc };
  const properties: Property[] = [];
  if (!isMap(doc.contents)) return { ok: true, properties };
  for (const pair of doc.contents.items) {
    const key = isScalar(pair.key) ? scalarText(pair.key.value) : String(pair.key);
    const value = pair.value;
    const text = value === null || isScalar(value) ? scalarText(value?.value) : null;
    // A one-line field would lose the line breaks of a multi-line value: those go to the source.
    if (text !== null && !text.includes('\n')) {
      properties.push({ key, value: text, kind: 'text' });
    } else if (isSeq(value) && value.items.every((item) => isScalar(item))) {
      const items = value.items.map((item) => scalarText(isScalar(item) ? item.value : item));
      properties.push({ key, value: items.join(', '), kind: 'list' });
    } else {
      const source = value?.range ? yaml.slice(value.range[0], value.range[1]) : '';
      properties.push({ key, value: source.trim(), kind: 'other' });
    }
  }
  return { ok: true, properties };
}

/** A typed value keeps its type when the new text still reads as one (a number stays a number). */
function coerce(text: string, previous: unknown): unknown {
  if (text === '') return null;
  if (typeof previous === 'number' && text.trim() !== '' && Number.isFinite(Number(text))) {
    return Number(text);
  }
  if (typeof previous === 'boolean' && (text === 'true' || text === 'false'))
    return text === 'true';
  return text;
}

function edit(yaml: string, change: (doc: Document.Parsed) => void): string {
  const doc = load(yaml);
  if (typeof doc === 'string') throw new Error(doc);
  change(doc);
  if (doc.contents === null && !doc.commentBefore && !doc.comment) return '';
  return doc.toString(TO_STRING);
}

/**
 * The YAML with `key` set to `text`, rewritten through yaml's Document so that comments, key order
 * and the style of the other values stay. A list property takes comma-separated items.
 */
export function setProperty(yaml: string, key: string, text: string): string {
  return edit(yaml, (doc) => {
    const node = doc.get(key, true);
    if (isSeq(node)) {
      const items = text
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item !== '');
      const seq = doc.createNode(items);
      seq.flow = node.flow;
      doc.set(key, seq);
    } else if (isScalar(node)) {
      node.value = coerce(text, node.value);
    } else {
      doc.set(key, coerce(text, null));
    }
  });
}

/** The YAML with a new property at the end (yaml makes the mapping of empty front matter); an existing key is set instead. */
export function addProperty(yaml: string, key: string, text: string): string {
  return edit(yaml, (doc) => {
    doc.set(key, coerce(text, null));
  });
}

/** The YAML without `key`. */
export function removeProperty(yaml: string, key: string): string {
  return edit(yaml, (doc) => {
    doc.delete(key);
    if (
      isMap(doc.contents) &&
      doc.contents.items.length === 0 &&
      !doc.commentBefore &&
      !doc.comment
    ) {
      doc.contents = null;
    }
  });
}

/** Why YAML source typed by hand cannot be kept as front matter, or null if it can. */
export function sourceProblem(yaml: string): string | null {
  return /^(?:---|\.\.\.)[ \t]*$/m.test(yaml)
    ? 'A line of --- or ... would end the properties early.'
    : null;
}
