// The page as an installable app: the service worker (sw.js) that keeps the page's files so
// that it loads while the server restarts.

/** Registers the service worker where the browser has them; a failure changes nothing. */
export function registerWorker() {
  if (!('serviceWorker' in navigator)) return;
  navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => {
    /* no worker (a private window, say): the page works as before, only not offline */
  });
}
