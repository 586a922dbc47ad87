// Removing a browser's folder once the browser is closed or killed.
import { rm } from 'node:fs/promises';

/**
 * Removes a folder, tried again while it is not empty yet: the processes of a browser just closed
 * or killed may still be exiting, Chromium writing its profile as the signal lands. Without
 * blocking (rmSync waits between its tries on the event loop's thread: seconds without webhooks
 * or health checks). Never rejects (a folder left behind must not fail a caller's clean-up, nor
 * keep a render slot taken): resolves to why it could not, or undefined.
 */
export function removeTree(path) {
  return rm(path, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }).then(
    () => undefined,
    (e) => e.message
  );
}
