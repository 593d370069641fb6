import { createConnection } from 'node:net';

/**
 * Whether a server answers on the Unix socket at `path`. A stale socket file left by a killed
 * process does not, so a listener may replace it; one that answers belongs to a live process.
 */
export function socketInUse(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const c = createConnection(path);
    c.once('connect', () => {
      c.destroy();
      resolve(true);
    });
    c.once('error', () => {
      resolve(false);
    });
  });
}
