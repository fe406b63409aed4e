// Apart from files.ts (which builds zod schemas) so that the editor can recognise an uploaded
// image's address without loading zod at start.

/** The path a file is served at; documents reference files by it (`/files/<id>`). */
export const fileUrl = (id: string) => `/files/${id}`;

const FILE_URL = /^\/files\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `src` is the address of an uploaded file (`/files/<uuid>`), and nothing else. */
export const isFileUrl = (src: unknown): src is string =>
  typeof src === 'string' && FILE_URL.test(src);
