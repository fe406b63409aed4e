import { useEffect, useState } from 'react';
import type { ConfigResponse } from '../../../common/api/config.ts';
import { loadServerConfig } from './aiConfig.ts';

type Status = { kind: 'loading' } | { kind: 'error' } | { kind: 'ready'; config: ConfigResponse };

/** Whether this server's AI assistant is on, with which model, and how to turn it on if not. */
export function AiStatus() {
  const [status, setStatus] = useState<Status>({ kind: 'loading' });
  useEffect(() => {
    let live = true;
    loadServerConfig().then(
      (config) => live && setStatus({ kind: 'ready', config }),
      () => live && setStatus({ kind: 'error' }),
    );
    return () => {
      live = false;
    };
  }, []);

  if (status.kind === 'loading') return <p className="ink-loading">Loading…</p>;
  if (status.kind === 'error') {
    return <p>The server's setup could not be read. Check your connection and reload.</p>;
  }
  const { enabled, model } = status.config.ai;
  return (
    <>
      <dl className="ink-settings__facts">
        <dt>Status</dt>
        <dd>{enabled ? 'On' : 'Off'}</dd>
        {enabled && (
          <>
            <dt>Model</dt>
            <dd>{model ?? '—'}</dd>
          </>
        )}
      </dl>
      {!enabled && (
        <p>
          To turn it on, set <code>AI_BASE_URL</code> and <code>AI_MODEL</code> (and{' '}
          <code>AI_API_KEY</code> if the provider needs one) on the server and restart it. The
          README lists the providers that work and the other settings.
        </p>
      )}
    </>
  );
}
