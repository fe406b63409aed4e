import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { AI_TONES, type AiCommand, type AiTone } from '../../../common/api/ai.ts';
import type { ConfigResponse } from '../../../common/api/config.ts';
import { useRovingFocus } from '../editor/menus/useRovingFocus.ts';
import type { AiCommandRequest } from './aiTarget.ts';
import type { AiMenuFocus } from './aiTrigger.ts';

/** Props of {@link AiMenu}. */
export interface AiMenuProps {
  /** The server's configuration, loading. */
  config: Promise<ConfigResponse>;
  /** Where focus goes first. */
  focus: AiMenuFocus;
  /** Runs a command. */
  onPick: (command: AiCommandRequest) => void;
  /** Closes the menu and returns to the text. */
  onClose: () => void;
}

const SIMPLE: readonly { command: AiCommand; label: string }[] = [
  { command: 'continue', label: 'Continue writing' },
  { command: 'improve', label: 'Improve writing' },
  { command: 'fix', label: 'Fix spelling and grammar' },
  { command: 'shorter', label: 'Make shorter' },
  { command: 'longer', label: 'Make longer' },
  { command: 'simplify', label: 'Simplify' },
  { command: 'summarize', label: 'Summarise' },
  { command: 'explain', label: 'Explain' },
];

const TONE_LABELS: Record<AiTone, string> = {
  professional: 'Professional',
  casual: 'Casual',
  confident: 'Confident',
  friendly: 'Friendly',
  direct: 'Direct',
};

type Availability = 'loading' | 'on' | 'off';

/** The AI menu: an "Ask AI" field, the commands, tones and a language for translation. */
export function AiMenu({ config, focus, onPick, onClose }: AiMenuProps) {
  const [availability, setAvailability] = useState<Availability>('loading');
  const [panel, setPanel] = useState<'none' | 'tone' | 'translate'>('none');
  const {
    attach,
    onKeyDown: onListKeyDown,
    onFocus: onListFocus,
    focus: focusCommands,
  } = useRovingFocus<HTMLDivElement>({ orientation: 'vertical' });
  const askField = useRef<HTMLInputElement>(null);
  const container = useRef<HTMLDivElement>(null);

  useEffect(() => {
    let live = true;
    // If the configuration cannot be read, offer the commands: the server's answer will say why.
    config.then(
      (loaded) => live && setAvailability(loaded.ai.enabled ? 'on' : 'off'),
      () => live && setAvailability('on'),
    );
    return () => {
      live = false;
    };
  }, [config]);

  // Again once the configuration is known: the menu may have turned into the "AI is off" note.
  useEffect(() => {
    if (focus === 'ask' && askField.current) askField.current.focus();
    else if (!focusCommands()) container.current?.focus();
  }, [focus, focusCommands, availability]);

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    event.stopPropagation();
    if (panel !== 'none') setPanel('none');
    else onClose();
  };

  const ask = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const instruction = new FormData(event.currentTarget).get('instruction');
    if (typeof instruction === 'string' && instruction.trim()) {
      onPick({ command: 'ask', instruction: instruction.trim() });
    }
  };

  const translate = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const language = new FormData(event.currentTarget).get('language');
    if (typeof language === 'string' && language.trim()) {
      onPick({ command: 'translate', language: language.trim() });
    }
  };

  if (availability === 'off') {
    return (
      <div ref={container} tabIndex={-1} className="ink-ai-menu" onKeyDown={onKeyDown}>
        <p className="ink-ai-menu__off" role="status">
          AI is off on this server. Set AI_BASE_URL and AI_MODEL (and AI_API_KEY if the provider
          needs one) on the server to turn it on.
        </p>
      </div>
    );
  }

  return (
    <div
      ref={container}
      tabIndex={-1}
      className="ink-ai-menu"
      role="dialog"
      aria-label="AI assistant"
      onKeyDown={onKeyDown}
    >
      <form className="ink-ai-menu__ask" onSubmit={ask}>
        <input
          ref={askField}
          name="instruction"
          className="ink-input"
          aria-label="Ask AI"
          placeholder="Ask AI to write or edit…"
          maxLength={1000}
          autoComplete="off"
        />
        <button type="submit" className="ink-ai-button ink-ai-button--primary">
          Ask
        </button>
      </form>
      <div
        ref={attach}
        role="menu"
        aria-label="AI commands"
        className="ink-ai-menu__list"
        onKeyDown={onListKeyDown}
        onFocus={onListFocus}
      >
        {SIMPLE.map((item) => (
          <button
            key={item.command}
            type="button"
            role="menuitem"
            className="ink-ai-menu__item"
            onClick={() => onPick({ command: item.command })}
          >
            {item.label}
          </button>
        ))}
        <button
          type="button"
          role="menuitem"
          aria-haspopup="menu"
          aria-expanded={panel === 'tone'}
          className="ink-ai-menu__item"
          onClick={() => setPanel(panel === 'tone' ? 'none' : 'tone')}
        >
          Change tone ›
        </button>
        {panel === 'tone' &&
          AI_TONES.map((tone) => (
            <button
              key={tone}
              type="button"
              role="menuitem"
              className="ink-ai-menu__item ink-ai-menu__item--sub"
              onClick={() => onPick({ command: 'tone', tone })}
            >
              {TONE_LABELS[tone]}
            </button>
          ))}
        <button
          type="button"
          role="menuitem"
          aria-expanded={panel === 'translate'}
          className="ink-ai-menu__item"
          onClick={() => setPanel(panel === 'translate' ? 'none' : 'translate')}
        >
          Translate…
        </button>
      </div>
      {panel === 'translate' && (
        <form className="ink-ai-menu__ask" onSubmit={translate}>
          <input
            name="language"
            className="ink-input"
            aria-label="Translate into (language)"
            placeholder="Language, e.g. German"
            maxLength={50}
            autoFocus
          />
          <button type="submit" className="ink-ai-button ink-ai-button--primary">
            Translate
          </button>
        </form>
      )}
    </div>
  );
}
