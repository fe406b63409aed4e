import { describe, expect, it } from 'vitest';
import { keptBlocks, renderBlocks, roundtrip } from './test/fidelity.ts';
import { readmes } from './test/readmes.ts';

describe('real-world README files through import → export', () => {
  it('keeps at least 99% of their blocks rendering the same', () => {
    const files = readmes();
    let total = 0;
    let kept = 0;
    const worst: string[] = [];
    for (const file of files) {
      const before = renderBlocks(file.text);
      const after = renderBlocks(roundtrip(file.text));
      const k = keptBlocks(before, after);
      total += before.length;
      kept += k;
      if (k < before.length)
        worst.push(`${file.name}: ${before.length - k} of ${before.length} blocks differ`);
    }
    const share = (kept / total) * 100;
    console.log(
      `README corpus: ${files.length} files, ${kept}/${total} blocks kept (${share.toFixed(2)}%)\n${worst.slice(0, 15).join('\n')}`,
    );
    expect(files.length).toBeGreaterThan(100);
    expect(share).toBeGreaterThanOrEqual(99);
  });
});
