import { upgradeWebSocket } from '@hono/node-server';
import { Hono } from 'hono';
import type { WebSocket } from 'ws';
import { CLOSE } from '../../common/api/collabClose.ts';
import { caretUserOf } from '../../common/editor/collab/caretUser.ts';
import { CollabEngine } from '../collab/collabEngine.ts';
import { envelopeName, presenceProblem } from '../collab/envelope.ts';
import { CsrfError, NotFoundError } from '../errors.ts';
import type { AppEnv, Services } from '../services.ts';

/** Messages one socket may send per second; typing and carets stay far below, a flood does not. */
export const MAX_MESSAGES_PER_SECOND = 300;

/**
 * `GET /api/collab`: the live-collaboration WebSocket (docs/ARCHITECTURE.md "Live
 * collaboration"). Mounted behind `requireSession`, so a signed-out upgrade gets 401 before any
 * socket exists; a WebSocket is exempt from CORS, so the Origin is checked here, as the CSRF
 * check does for writes. Which documents the socket may then open is up to the engine.
 */
export function collabRoutes(services: Services): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const origin = new URL(services.publicUrl).origin;
  app.get(
    '/api/collab',
    async (c, next) => {
      if (!services.collab) throw NotFoundError('There is no such API endpoint.');
      if (c.req.header('Origin') !== origin) {
        throw CsrfError('The connection comes from another site.');
      }
      await next();
    },
    upgradeWebSocket((c) => {
      const session = c.get('session');
      const engine = services.collab!;
      let connection: ReturnType<typeof engine.connect> | undefined;
      let windowStart = Date.now();
      let inWindow = 0;
      const names = new Set<string>();
      const presenceIds = new Map<string, number>();
      return {
        onOpen: (_event, ws) => {
          connection = engine.connect(ws.raw as WebSocket, c.req.raw, {
            userId: session.user.id,
            sessionHash: session.idHash,
            caret: caretUserOf(session.user),
          });
        },
        onMessage: (event, ws) => {
          const socket = ws.raw as WebSocket;
          // Closed by the server (signed out, revoked, refused): nothing it sends after counts,
          // though a client that ignores the close frame goes on sending until it is cut.
          if (socket.readyState !== socket.OPEN) return;
          const now = Date.now();
          if (now - windowStart >= 1000) {
            windowStart = now;
            inWindow = 0;
          }
          inWindow += 1;
          // Text frames are not part of the protocol; a flood is not typing.
          if (!(event.data instanceof ArrayBuffer)) {
            engine.end(socket, CLOSE.refused);
            return;
          }
          if (inWindow > MAX_MESSAGES_PER_SECOND) {
            engine.end(socket, CLOSE.tooManyMessages);
            return;
          }
          const data = new Uint8Array(event.data);
          const name = envelopeName(data);
          if (name === null || !CollabEngine.admitsName(names, name)) {
            engine.end(socket, CLOSE.refused);
            return;
          }
          if (presenceProblem(data, presenceIds)) {
            engine.end(socket, CLOSE.refused);
            return;
          }
          connection?.handleMessage(data);
        },
        onClose: (event) => {
          connection?.handleClose({ code: event.code, reason: event.reason });
        },
      };
    }),
  );
  return app;
}
