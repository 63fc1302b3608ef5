// @ts-check
// The API's refusals as sentences for people. The API keeps its exact words for programs;
// the page shows a translated sentence chosen from the status and, within a status, from
// the gist of the message.

/**
 * Within a status, the first rule whose pattern the server's message matches names the
 * sentence; the last rule of each status catches the rest.
 * @type {Record<number, [RegExp, string][]>}
 */
const RULES = {
  0: [[/./s, 'error.offline']],
  400: [
    [/^cannot read the ply/i, 'error.bad_ply'],
    [/kept for the site/i, 'error.reserved_name'],
    [/another player's account/i, 'error.name_not_yours'],
    [/user name/i, 'error.bad_user_name'],
    [/too common|easy to guess/i, 'error.weak_password'],
    [/password/i, 'error.bad_password'],
    [/message/i, 'error.bad_chat'],
    [/base time|increment|days per move|time control/i, 'error.bad_clock'],
    [/position/i, 'error.bad_position'],
    [/record/i, 'error.bad_record'],
    [/name/i, 'error.bad_name'],
    [/(?:)/, 'error.bad_request'],
  ],
  403: [
    [/CSRF|another site/i, 'error.csrf'],
    [/password is wrong/i, 'error.wrong_password'],
    [/rated games/i, 'error.rated_needs_account'],
    [/muted/i, 'error.muted'],
    [/account is closed/i, 'error.closed'],
    [/moderators/i, 'error.not_moderator'],
    [/cannot play this player|blocks the other/i, 'error.blocked'],
    [/decline/i, 'error.not_declinable'],
    [/sign in|session/i, 'error.sign_in'],
    [/(?:)/, 'error.no_seat'],
  ],
  404: [
    [/endpoint/i, 'error.server_changed'],
    [/no player/i, 'error.no_player'],
    [/no session/i, 'error.no_session'],
    [/challenge/i, 'error.no_challenge'],
    [/(?:)/, 'error.no_game'],
  ],
  409: [
    [/not your turn/i, 'error.not_your_turn'],
    [/user name is taken/i, 'error.name_taken'],
    [/open the lobby|open a page of the site/i, 'error.not_in_lobby'],
    [/your own account/i, 'error.own_account'],
    [/your own challenge/i, 'error.own_challenge'],
    [/aborted/i, 'error.no_abort'],
    [/claim/i, 'error.no_claim'],
    [/rematch/i, 'error.rematch'],
    [/your time ran out/i, 'error.out_of_time'],
    [/hints? and analys/i, 'error.no_coaching'],
    [/take(?:n)? back|takeback/i, 'error.no_takeback'],
    [/you offered this draw/i, 'error.own_draw'],
    [/already offered/i, 'error.draw_pending'],
    [/no draw is offered/i, 'error.no_draw'],
    [/game is over/i, 'error.game_over'],
    [/not legal|illegal/i, 'error.illegal'],
    [/(?:)/, 'error.not_now'],
  ],
  413: [[/(?:)/, 'error.too_large']],
  415: [[/(?:)/, 'error.bad_request']],
  429: [
    [/wrong passwords for this account/i, 'error.account_wait'],
    [/attempts/i, 'error.too_many_attempts'],
    [/messages in/i, 'error.chat_too_fast'],
    [/challenges open/i, 'error.too_many_challenges'],
    [/reports today/i, 'error.too_many_reports'],
    [/block as many/i, 'error.too_many_blocks'],
    [/(?:)/, 'error.too_many_games'],
  ],
  500: [[/(?:)/, 'error.server']],
  503: [[/(?:)/, 'error.unavailable']],
  507: [[/(?:)/, 'error.full']],
};

/**
 * The key of the sentence that tells a person about a refusal of the API.
 * @param {number} status the HTTP status, or 0 when the server could not be reached
 * @param {string} [message] the server's own message
 * @returns {string}
 */
export function errorKey(status, message = '') {
  const rules = RULES[status];
  if (!rules) return status >= 500 ? 'error.server' : 'error.unknown';
  for (const [pattern, key] of rules) if (pattern.test(message)) return key;
  return 'error.unknown';
}

/** Every key errorKey can return, for the tests of the translations. */
export const ERROR_KEYS = [...new Set([...Object.values(RULES).flat().map(([, key]) => key), 'error.server', 'error.unknown'])];
