import { z } from 'zod';

/** `GET /api/config` — what the client needs to know about this server's setup. */
export const configResponseSchema = z.object({
  ai: z.object({
    /** Whether an AI provider is configured; when false, `POST /api/ai/generate` answers 503. */
    enabled: z.boolean(),
    /** The model the server asks for, shown in the settings; null when AI is off. */
    model: z.string().nullable(),
  }),
  /** The limits the server enforces, so the client can warn before sending. */
  limits: z.object({
    /** Largest document, as bytes of its JSON. */
    documentBytes: z.number().int().positive(),
    /** Longest title, in characters. */
    titleChars: z.number().int().positive(),
    /** Largest Markdown file to import, in bytes. */
    importBytes: z.number().int().positive(),
    /** Longest AI `text` (and `context`), in characters. */
    aiInputChars: z.number().int().positive(),
    /** Largest image upload, in bytes (`POST /api/files` answers 413 above it). */
    fileBytes: z.number().int().positive(),
  }),
});

/** The body of `GET /api/config`. */
export type ConfigResponse = z.infer<typeof configResponseSchema>;
