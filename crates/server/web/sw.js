// The service worker: keeps the page's own files (the app shell) so that the page loads
// while the server restarts. Every file is asked of the network first and the copy kept is
// renewed; the copy is used only when the server cannot be reached. The API is never kept.

const CACHE = 'morris-shell-5';
const JS = ['api', 'app', 'board', 'clock', 'diagram', 'dialogs', 'editor', 'endgame', 'errors', 'format', 'gamelist',
  'grades', 'i18n', 'install', 'notfound', 'notify', 'offers', 'panels', 'plies', 'plyclock', 'review', 'rules', 'settings', 'setup', 'shell',
  'site', 'sound'];
const LANGS = ['en', 'de', 'fr', 'nl', 'it', 'es', 'sr', 'af'];
const SHELL = [
  '/', '/app.css', '/screens.css', '/favicon.svg', '/icon.svg', '/icon-192.png', '/icon-512.png',
  '/manifest.webmanifest', '/review.html', '/editor.html', '/rules.html', '/404.html',
  ...JS.map((name) => `/js/${name}.js`),
  ...LANGS.map((lang) => `/i18n/${lang}.json`),
];

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

/** The key a request is kept under: every address the app itself answers is one. */
function keyOf(url) {
  const p = url.pathname;
  if (p === '/' || p === '/lobby' || p === '/games' || p === '/leaderboard' || p === '/mod' || p.startsWith('/g/') || p.startsWith('/@/')) return '/';
  return p;
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin || url.pathname.startsWith('/api/')) return;
  const key = keyOf(url);
  event.respondWith(
    fetch(request)
      .then((response) => {
        if (response.ok && response.type === 'basic') {
          const copy = response.clone();
          caches.open(CACHE).then((cache) => cache.put(key, copy));
        }
        return response;
      })
      .catch(() => caches.match(key).then((kept) => kept ?? Response.error())),
  );
});
