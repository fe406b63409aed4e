import type { Plugin } from 'vite';
import { replaceInModulePlugin } from './replaceInModule.ts';

/**
 * `mergeAttributes` of @tiptap/core, doing what Tiptap's does in one object: Tiptap's copies the
 * attributes merged so far for every object it merges in and walks each through
 * `Object.entries(...).forEach`, and every node it draws is merged so, once per rendered
 * attribute and again in its renderHTML. The rules are Tiptap's, in its order: `__proto__` kept
 * as an own property, a value taken where there is none yet, classes joined without repeats,
 * styles merged by property, anything else replaced. The style case calls Tiptap's own
 * `parseStyleEntries`, which this replaces nothing of.
 */
export const MERGE_ATTRIBUTES = `function mergeAttributes(...objects) {
	const mergedAttributes = {};
	for (let i = 0; i < objects.length; i++) {
		const item = objects[i];
		if (!item) continue;
		const keys = Object.keys(item);
		for (let j = 0; j < keys.length; j++) {
			const key = keys[j];
			const value = item[key];
			if (key === "__proto__") {
				Object.defineProperty(mergedAttributes, key, { configurable: true, enumerable: true, value, writable: true });
				continue;
			}
			if (!mergedAttributes[key]) {
				mergedAttributes[key] = value;
				continue;
			}
			if (key === "class") {
				const valueClasses = value ? String(value).split(" ") : [];
				const existingClasses = mergedAttributes[key] ? mergedAttributes[key].split(" ") : [];
				const insertClasses = valueClasses.filter((valueClass) => !existingClasses.includes(valueClass));
				mergedAttributes[key] = [...existingClasses, ...insertClasses].join(" ");
			} else if (key === "style") {
				const styleMap = new Map([...parseStyleEntries(mergedAttributes[key]), ...parseStyleEntries(value)]);
				mergedAttributes[key] = Array.from(styleMap.entries()).map(([property, val]) => property + ": " + val).join("; ");
			} else mergedAttributes[key] = value;
		}
	}
	return mergedAttributes;
}
`;

/**
 * `getRenderedAttributes` of @tiptap/core: the type's rendered attributes, each through its
 * renderHTML, merged in order, as Tiptap's filter, filter, map and reduce do, in one pass and
 * one merge.
 */
export const RENDERED_ATTRIBUTES = `function getRenderedAttributes(nodeOrMark, extensionAttributes) {
	const rendered = [];
	const name = nodeOrMark.type.name;
	for (let i = 0; i < extensionAttributes.length; i++) {
		const item = extensionAttributes[i];
		if (item.type !== name || !item.attribute.rendered) continue;
		rendered.push(item.attribute.renderHTML ? item.attribute.renderHTML(nodeOrMark.attrs) || {} : { [item.name]: nodeOrMark.attrs[item.name] });
	}
	return mergeAttributes(...rendered);
}
`;

/** Tiptap's two functions in its ES module, each whole, up to its closing brace at the line's start. */
export const TIPTAP_MERGE = /function mergeAttributes\(\.\.\.objects\) \{\n[\s\S]*?\n\}\n/;
export const TIPTAP_RENDERED =
  /function getRenderedAttributes\(nodeOrMark, extensionAttributes\) \{\n[\s\S]*?\n\}\n/;

/**
 * Puts {@link MERGE_ATTRIBUTES} and {@link RENDERED_ATTRIBUTES} in place of Tiptap's own in
 * @tiptap/core's module. Importing 1.2 MB of README Markdown drew its 52,000 nodes and marks
 * about 50–80 ms sooner of 900 (the allocations gone were also the garbage collector's work).
 * The build fails if Tiptap's module no longer has them as this expects.
 */
export function tiptapFastAttributes(): Plugin {
  return replaceInModulePlugin(
    'inkwell:tiptap-fast-attributes',
    /node_modules[\\/]@tiptap[\\/]core[\\/]dist[\\/]index\.js$/,
    [
      { pattern: TIPTAP_MERGE, replacement: MERGE_ATTRIBUTES, name: "Tiptap's mergeAttributes" },
      {
        pattern: TIPTAP_RENDERED,
        replacement: RENDERED_ATTRIBUTES,
        name: "Tiptap's getRenderedAttributes",
      },
    ],
  );
}
