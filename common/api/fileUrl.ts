// Apart from files.ts (which builds zod schemas) so that the editor can recognise an uploaded
// image's address without loading zod at start.

/** The path a file is served at; documents reference files by it (`/files/<id>`). */
export const fileUrl = (id: string) => `/files/${id}`;
