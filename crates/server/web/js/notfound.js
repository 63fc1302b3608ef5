// The page of an address that holds nothing: it says so in the page's language and leads
// back to a new game, the lobby and the rules.

import { startShell } from './shell.js';

startShell(() => {});
