// The frame shared by the game, review, editor and rules pages: the page's language (with its
// switch in the top bar), the variants from the server, and the service worker.

import { LANGUAGES, isLanguage, language, loadLanguage, saveLanguage, startLanguage, translatePage } from './i18n.js';
import { registerWorker } from './install.js';
import { renderTray } from './notify.js';

const $ = (id) => document.getElementById(id);

/**
 * Loads the page's words, translates the fixed texts and follows the language switch;
 * `onLanguage` runs after every change of language, to set the texts made by script.
 */
export async function startShell(onLanguage) {
  const lang = startLanguage();
  try {
    await loadLanguage(lang);
  } catch {
    if (lang !== 'en') await loadLanguage('en');
  }
  translatePage(document);
  // The top bar's switch, and the settings' one (which a phone's narrow top bar leaves out).
  const selects = [$('lang'), $('settings-lang')].filter((s) => s instanceof HTMLSelectElement);
  for (const select of selects) {
    for (const [code, name] of Object.entries(LANGUAGES)) {
      const o = document.createElement('option');
      o.value = code;
      o.textContent = name;
      o.lang = code;
      select.append(o);
    }
    select.value = language();
    select.addEventListener('change', async () => {
      const code = select.value;
      if (!isLanguage(code)) return;
      try {
        await loadLanguage(code);
      } catch {
        select.value = language();
        return;
      }
      saveLanguage(code);
      for (const s of selects) s.value = code;
      translatePage(document);
      onLanguage();
      renderTray();
    });
  }
  registerWorker();
}

/**
 * Runs `request` until it succeeds, showing `status` (an element) as reconnecting meanwhile:
 * the server may be restarting. Waits grow from 1 s to 10 s.
 */
export async function untilReached(request, onWaiting) {
  let wait = 1000;
  for (;;) {
    try {
      return await request();
    } catch (err) {
      if (err?.status !== 0) throw err;
      onWaiting();
      await new Promise((resolve) => setTimeout(resolve, wait));
      wait = Math.min(wait * 2, 10000);
    }
  }
}
