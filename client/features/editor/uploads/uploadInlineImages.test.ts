import { describe, expect, it } from 'vitest';
import { parseMarkdown } from '../../../../common/editor/markdown/parseMarkdown.ts';
import { UploadError } from '../../../lib/uploadFile.ts';
import { fakeUpload, srcsOf } from './test/fakeUpload.ts';
import { withAbsoluteFileUrls } from './imageSources.ts';
import { dataImageBlob, uploadInlineImages } from './uploadInlineImages.ts';

// A 1×1 PNG.
const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

describe('images embedded as data: addresses in imported Markdown', () => {
  it('are uploaded once each and point at their files', async () => {
    const doc = parseMarkdown(`![a](${PNG})\n\nText ![b](${PNG}) and more.\n`);
    const { blobs: calls, upload } = fakeUpload();
    const result = await uploadInlineImages(doc, upload);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.type).toBe('image/png');
    expect(srcsOf(result.doc)).toEqual([
      '/files/00000000-0000-4000-8000-000000000001',
      '/files/00000000-0000-4000-8000-000000000001',
    ]);
    expect(result.doc.textContent).toBe(doc.textContent);
    expect(result.kept).toBe(0);
  });

  it('stay embedded, with the reason, when the upload fails', async () => {
    const doc = parseMarkdown(`![a](${PNG})\n`);
    const result = await uploadInlineImages(
      doc,
      fakeUpload(() => true, new UploadError('This file is too large to upload.', 413)).upload,
    );
    expect(srcsOf(result.doc)).toEqual([PNG]);
    expect(result.kept).toBe(1);
    expect(result.reason).toBe('This file is too large to upload.');
  });

  it('leave documents without them untouched', async () => {
    const doc = parseMarkdown('![x](https://example.com/x.png)\n');
    const { blobs: calls, upload } = fakeUpload();
    const result = await uploadInlineImages(doc, upload);
    expect(result.doc).toBe(doc);
    expect(calls).toHaveLength(0);
  });

  it('reads only base64 image data', () => {
    expect(dataImageBlob(PNG)?.size).toBe(70);
    expect(dataImageBlob('data:text/html;base64,PHNjcmlwdD4=')).toBeNull();
    expect(dataImageBlob('data:image/png;base64,@@@')).toBeNull();
    expect(dataImageBlob('https://example.com/x.png')).toBeNull();
  });
});

describe('uploaded images in exported Markdown', () => {
  it('are linked by absolute address; other images are left as they are', () => {
    const doc = parseMarkdown(
      '![a](/files/00000000-0000-4000-8000-000000000001)\n\n![b](https://example.com/b.png) ![c](pic.png)\n',
    );
    const out = withAbsoluteFileUrls(doc, 'https://ink.example');
    expect(srcsOf(out)).toEqual([
      'https://ink.example/files/00000000-0000-4000-8000-000000000001',
      'https://example.com/b.png',
      'pic.png',
    ]);
    expect(withAbsoluteFileUrls(parseMarkdown('![b](b.png)\n'), 'https://ink.example')).toEqual(
      parseMarkdown('![b](b.png)\n'),
    );
  });
});
