import { isAllowedImageUrl } from '../url.ts';

function isSrcsetSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d;
}

/**
 * The URLs of a `srcset` value, split as the HTML spec's srcset parser splits them: a URL runs to
 * ASCII whitespace (a comma inside it, as in a data URL, does not end it), trailing commas end a
 * candidate, and descriptors run to the next comma outside parentheses.
 */
export function srcsetUrls(srcset: string): string[] {
  const urls: string[] = [];
  let i = 0;
  while (i < srcset.length) {
    while (i < srcset.length && (isSrcsetSpace(srcset.charCodeAt(i)) || srcset[i] === ',')) i++;
    if (i >= srcset.length) break;
    const start = i;
    while (i < srcset.length && !isSrcsetSpace(srcset.charCodeAt(i))) i++;
    let end = i;
    while (srcset[end - 1] === ',') end--;
    urls.push(srcset.slice(start, end));
    // A URL that ended in commas has no descriptors; otherwise skip them up to the next comma.
    if (end < i) continue;
    let inParens = false;
    for (; i < srcset.length; i++) {
      const c = srcset[i];
      if (c === '(') inParens = true;
      else if (c === ')') inParens = false;
      else if (c === ',' && !inParens) break;
    }
  }
  return urls;
}

/** True when every image candidate of a `srcset` value passes the image URL rule. */
export function isAllowedSrcset(srcset: string): boolean {
  return srcsetUrls(srcset).every(isAllowedImageUrl);
}
