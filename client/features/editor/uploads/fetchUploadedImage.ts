import { api } from '../../../lib/api.ts';
import { dispositionName, type FetchedImage } from './exportWithImages.ts';

/** An uploaded image's bytes, type and name, through the API client (the owner's session). */
export async function fetchUploadedImage(src: string): Promise<FetchedImage> {
  const response = await api.getRaw(src);
  return {
    bytes: new Uint8Array(await response.arrayBuffer()),
    type: response.headers.get('Content-Type') ?? '',
    name: dispositionName(response.headers.get('Content-Disposition')),
  };
}
