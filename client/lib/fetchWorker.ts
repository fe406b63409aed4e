/// <reference lib="webworker" />
import type { WorkerFetchReply, WorkerFetchRequest } from './offThreadFetch.ts';

// The worker behind `offThreadFetch`: sends a request whose body is large, so that encoding it
// and handing it to the network does not hold up the page's main thread.

const scope = self as unknown as DedicatedWorkerGlobalScope;

scope.onmessage = async (event: MessageEvent<WorkerFetchRequest>) => {
  const { id, url, init } = event.data;
  let reply: WorkerFetchReply;
  try {
    const response = await fetch(url, init);
    reply = {
      id,
      ok: true,
      status: response.status,
      statusText: response.statusText,
      headers: [...response.headers],
      body: await response.text(),
    };
  } catch (error) {
    reply = { id, ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  scope.postMessage(reply);
};
