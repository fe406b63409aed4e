import { fileTypeFromFile } from 'file-type';
import { UPLOAD_TYPES, type UploadType } from '../../common/api/files.ts';

const ACCEPTED = new Set<string>(UPLOAD_TYPES);
const isUploadType = (mime: string): mime is UploadType => ACCEPTED.has(mime);

/**
 * The upload's type from its first bytes (file-type), never from its name or the client's
 * header; undefined unless it is one of `UPLOAD_TYPES`. SVG, HTML and other text formats have no
 * magic number and come back undefined. An animated PNG counts as PNG: re-encoding keeps its
 * first frame.
 */
export async function sniffType(path: string): Promise<UploadType | undefined> {
  const found = await fileTypeFromFile(path);
  const mime = found?.mime === 'image/apng' ? 'image/png' : found?.mime;
  return mime !== undefined && isUploadType(mime) ? mime : undefined;
}
