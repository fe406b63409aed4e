import { z } from 'zod';
import { ERROR_STATUS, type ErrorCode } from './errors.ts';

/**
 * The default AI limits of docs/PRODUCT.md "Limits"; the server's configuration may change them.
 */
export const DEFAULT_AI_LIMITS = {
  /** Longest `text` (and, separately, `context`) of one request, in characters. */
  inputChars: 24_000,
  /** Most tokens one answer may have. */
  outputTokens: 2048,
  /** Requests one user may start per minute. */
  requestsPerMinute: 20,
  /** Input plus output tokens one user may spend per UTC day. */
  dailyTokenBudget: 200_000,
} as const;

/** What the assistant can do (docs/PRODUCT.md "AI assistant"). */
export const AI_COMMANDS = [
  'continue',
  'improve',
  'fix',
  'shorter',
  'longer',
  'simplify',
  'tone',
  'summarize',
  'translate',
  'explain',
  'ask',
] as const;

/** One of `AI_COMMANDS`. */
export type AiCommand = (typeof AI_COMMANDS)[number];

/** The tones of "change tone". */
export const AI_TONES = ['professional', 'casual', 'confident', 'friendly', 'direct'] as const;

/** One of `AI_TONES`. */
export type AiTone = (typeof AI_TONES)[number];

/** Longest target language of `translate`, in characters. */
export const AI_LANGUAGE_MAX_CHARS = 50;
/** Longest instruction of `ask`, in characters. */
export const AI_INSTRUCTION_MAX_CHARS = 1000;

/**
 * `POST /api/ai/generate` — answered with Server-Sent Events (`aiStreamEventSchema`). The length
 * of `text` and `context` is checked by the server against its configured cap (`GET /api/config`,
 * `limits.aiInputChars`) and answered with 413 `payload_too_large`, so it is not in this schema.
 */
export const aiGenerateRequestSchema = z
  .object({
    command: z.enum(AI_COMMANDS, {
      message: `Unknown command; use one of ${AI_COMMANDS.join(', ')}.`,
    }),
    /** The selection, or the document's text when nothing is selected. */
    text: z.string(),
    /** Text around the selection, for reference only: the model does not rewrite it. */
    context: z.string().optional(),
    /** Required for `tone`. */
    tone: z.enum(AI_TONES, { message: `Use one of ${AI_TONES.join(', ')}.` }).optional(),
    /** Required for `translate`: the language to translate into, e.g. "German" or "pt-BR". */
    language: z
      .string()
      .trim()
      .max(AI_LANGUAGE_MAX_CHARS, `A language has at most ${AI_LANGUAGE_MAX_CHARS} characters.`)
      .optional(),
    /** Required for `ask`: what the writer wants done. */
    instruction: z
      .string()
      .trim()
      .max(
        AI_INSTRUCTION_MAX_CHARS,
        `An instruction has at most ${AI_INSTRUCTION_MAX_CHARS} characters.`,
      )
      .optional(),
  })
  .superRefine((body, ctx) => {
    const need = (field: 'tone' | 'language' | 'instruction', message: string) => {
      if (!body[field]) ctx.addIssue({ code: 'custom', path: [field], message });
    };
    if (body.command === 'tone') need('tone', `Choose a tone: ${AI_TONES.join(', ')}.`);
    if (body.command === 'translate') need('language', 'Name the language to translate into.');
    if (body.command === 'ask') need('instruction', 'Say what the assistant should do.');
    // Only "ask" can start from nothing ("draft an introduction about …").
    if (body.command !== 'ask' && body.text.trim() === '') {
      ctx.addIssue({ code: 'custom', path: ['text'], message: 'There is no text to work on.' });
    }
  });

/** The body of `POST /api/ai/generate`. */
export type AiGenerateRequest = z.input<typeof aiGenerateRequestSchema>;

/** `event: delta` — the next piece of the answer (Markdown), to append to what came before. */
export const aiDeltaEventSchema = z.object({ text: z.string() });
export type AiDeltaEvent = z.infer<typeof aiDeltaEventSchema>;

/** Why the model stopped: `length` means the output cap cut the answer short. */
export const AI_FINISH_REASONS = ['stop', 'length', 'content_filter', 'other'] as const;

/** Tokens one request used. */
export const aiUsageSchema = z.object({
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  /** True when the provider reported no usage and the server estimated it (characters / 4). */
  estimated: z.boolean(),
});
export type AiUsage = z.infer<typeof aiUsageSchema>;

/** `event: done` — the answer is complete; the last event of a successful stream. */
export const aiDoneEventSchema = z.object({
  usage: aiUsageSchema,
  finishReason: z.enum(AI_FINISH_REASONS),
});
export type AiDoneEvent = z.infer<typeof aiDoneEventSchema>;

const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

/**
 * `event: error` — the stream failed after it started (the provider broke off, timed out…); the
 * last event. The deltas before it are what arrived. `retryAfterSeconds` comes with `rate_limited`.
 */
export const aiErrorEventSchema = z.object({
  code: z.enum(ERROR_CODES),
  message: z.string(),
  retryAfterSeconds: z.number().int().positive().optional(),
});
export type AiErrorEvent = z.infer<typeof aiErrorEventSchema>;

/** The events of the `POST /api/ai/generate` stream, by SSE event name. */
export const aiStreamEventSchema = z.discriminatedUnion('event', [
  z.object({ event: z.literal('delta'), data: aiDeltaEventSchema }),
  z.object({ event: z.literal('done'), data: aiDoneEventSchema }),
  z.object({ event: z.literal('error'), data: aiErrorEventSchema }),
]);
export type AiStreamEvent = z.infer<typeof aiStreamEventSchema>;
