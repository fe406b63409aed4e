import type { createLowlight } from 'lowlight';
import type { CodeLanguage } from './languages.ts';

type Lowlight = ReturnType<typeof createLowlight>;

let lowlight: Lowlight | undefined;
let lowlightLoading: Promise<Lowlight> | undefined;
const loading = new Map<string, Promise<void>>();
const failed = new Set<string>();
const listeners = new Set<(name: string) => void>();

/** lowlight itself is loaded with the first grammar: a document without code never pays for it. */
function loadLowlight(): Promise<Lowlight> {
  lowlightLoading ??= import('lowlight').then((module) => {
    lowlight = module.createLowlight();
    return lowlight;
  });
  return lowlightLoading;
}

/** lowlight, when the grammar `name` is registered with it; undefined while it still loads. */
export function highlighterFor(name: string): Lowlight | undefined {
  return lowlight?.registered(name) ? lowlight : undefined;
}

/**
 * Starts loading a grammar (once, however often it is asked for) and tells every listener when
 * it is ready. A grammar that failed to load (offline) is not retried in this session.
 */
export function requestGrammar(language: CodeLanguage): void {
  if (loading.has(language.name) || failed.has(language.name)) return;
  const grammar = import('./grammarModules.ts').then(({ GRAMMAR_LOADERS }) => {
    const load = GRAMMAR_LOADERS[language.name];
    if (!load) throw new Error(`No grammar module for ${language.name}`);
    return load();
  });
  const promise = Promise.all([loadLowlight(), grammar]).then(
    ([instance, grammar]) => {
      instance.register(language.name, grammar.default);
      for (const listener of listeners) listener(language.name);
    },
    () => {
      failed.add(language.name);
      loading.delete(language.name);
    },
  );
  loading.set(language.name, promise);
}

/** Calls `listener` with each grammar's name once it has loaded; returns the unsubscribe. */
export function onGrammarLoaded(listener: (name: string) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
