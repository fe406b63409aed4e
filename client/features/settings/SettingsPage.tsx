import { useEffect, useId, useState } from 'react';
import { AppLayout } from '../../app/AppLayout.tsx';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { useToast } from '../../components/toastContext.ts';
import { THEME_PREFERENCES, type ThemePreference } from '../../lib/theme.ts';
import { signOut } from '../auth/sessionApi.ts';
import { useSession } from '../auth/sessionContext.ts';
import { failureMessage } from '../documents/useDocumentActions.ts';
import { forgetDevice, unsavedOnDevice } from '../live/persistence/forgetDevice.ts';
import { flushAllLiveSaves, stopAllLiveSaves } from '../live/persistence/liveSaves.ts';
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
  /** Documents with text only this device holds, while asking whether to sign out anyway. */
  const [unsaved, setUnsaved] = useState(0);

  const signOutAndForget = async () => {
    setUnsaved(0);
    setLeaving(true);
    try {
      // This device forgets the account's text once the server has ended the session.
      await signOut(async () => {
        stopAllLiveSaves();
        await forgetDevice();
      });
    } catch (error) {
      const message = failureMessage(error, 'sign out');
      if (message) toast.show(message, 'error');
      setLeaving(false);
    }
  };

  const leave = async () => {
    setLeaving(true);
    // Pending saves go first; what the server acknowledges leaves the drafts.
    await flushAllLiveSaves();
    const left = await unsavedOnDevice().catch(() => 0);
    if (left > 0) {
      setLeaving(false);
      setUnsaved(left);
      return;
    }
    await signOutAndForget();
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
      {unsaved > 0 ? (
        <ConfirmDialog
          open
          title="Sign out and lose unsaved changes?"
          message={
            `${unsaved === 1 ? 'One document has' : `${unsaved} documents have`} changes that ` +
            'only this device holds: they have not reached your account (you may be offline). ' +
            'Signing out deletes them from this device.'
          }
          confirmLabel="Sign out and delete them"
          onConfirm={() => void signOutAndForget()}
          onCancel={() => setUnsaved(0)}
        />
      ) : null}
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
