import { useEffect, useId, useState } from 'react';
import { AppLayout } from '../../app/AppLayout.tsx';
import { useToast } from '../../components/toastContext.ts';
import { THEME_PREFERENCES, type ThemePreference } from '../../lib/theme.ts';
import { signOut } from '../auth/sessionApi.ts';
import { useSession } from '../auth/sessionContext.ts';
import { failureMessage } from '../documents/useDocumentActions.ts';
import { flushAllLiveSaves } from '../editor/persistence/liveSaves.ts';
import { AiStatus } from '../ai/AiStatus.tsx';
import { useThemePreference } from './useThemePreference.ts';

const THEME_LABELS: Record<ThemePreference, string> = {
  light: 'Light',
  dark: 'Dark',
  system: 'Same as the system',
};

function Account() {
  const session = useSession();
  const toast = useToast();
  const [leaving, setLeaving] = useState(false);

  const leave = async () => {
    setLeaving(true);
    // Pending saves go first; what does not make it in time stays in the drafts.
    await flushAllLiveSaves();
    try {
      await signOut();
    } catch (error) {
      const message = failureMessage(error, 'sign out');
      if (message) toast.show(message, 'error');
      setLeaving(false);
    }
  };

  if (session.status === 'loading') return <p className="ink-loading">Loading…</p>;
  if (session.status === 'error') return <p>{session.message}</p>;
  const { user, provider } = session.me;
  return (
    <>
      <dl className="ink-settings__facts">
        <dt>Name</dt>
        <dd>{user.name ?? '—'}</dd>
        <dt>E-mail</dt>
        <dd>{user.email ?? '—'}</dd>
        <dt>Signed in with</dt>
        <dd>{provider.kind === 'embedded' ? 'An Inkwell account' : provider.issuer}</dd>
      </dl>
      <button type="button" className="ink-button" disabled={leaving} onClick={() => void leave()}>
        {leaving ? 'Signing out…' : 'Sign out'}
      </button>
    </>
  );
}

function Appearance() {
  const [theme, setTheme] = useThemePreference();
  const name = useId();
  return (
    <fieldset className="ink-settings__choices">
      <legend className="ink-visually-hidden">Theme</legend>
      {THEME_PREFERENCES.map((value) => (
        <label key={value} className="ink-settings__choice">
          <input
            type="radio"
            name={name}
            value={value}
            checked={theme === value}
            onChange={() => setTheme(value)}
          />
          {THEME_LABELS[value]}
        </label>
      ))}
    </fieldset>
  );
}

/** `/settings`: the account (name, e-mail, sign out), the AI assistant's status and the appearance. */
export function SettingsPage() {
  useEffect(() => {
    document.title = 'Settings – Inkwell';
  }, []);
  return (
    <AppLayout title={<h1 className="ink-page-title">Settings</h1>}>
      <div className="ink-page ink-settings">
        <section aria-labelledby="ink-settings-account">
          <h2 id="ink-settings-account">Account</h2>
          <Account />
        </section>
        <section aria-labelledby="ink-settings-ai">
          <h2 id="ink-settings-ai">AI assistant</h2>
          <AiStatus />
        </section>
        <section aria-labelledby="ink-settings-appearance">
          <h2 id="ink-settings-appearance">Appearance</h2>
          <Appearance />
        </section>
      </div>
    </AppLayout>
  );
}
