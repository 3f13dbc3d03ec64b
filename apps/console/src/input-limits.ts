/**
 * The API's input limits, as the console's forms enforce them (a form refuses what the API would,
 * before sending). Kept here as numbers, not imported, so that the browser bundle does not carry
 * the contracts library; input-limits.spec.ts holds them to libs/contracts.
 */
export const MAX_OBJECT_ID_LENGTH = 100;

/** Alert rules and destinations (libs/contracts console-alerts-api.ts). */
export const MAX_ALERT_NAME_LENGTH = 100;
export const MAX_ALERT_THRESHOLD = 1_000_000;
export const MAX_ALERT_MINUTES = 10_080;
export const MAX_ALERT_URL_LENGTH = 2000;
export const MAX_ALERT_EMAIL_LENGTH = 254;
export const MAX_ALERT_LABEL_LENGTH = 100;
/** A destination's address as an input's `pattern` (the whole value must match, as the API's anchored patterns). */
export const ALERT_EMAIL_PATTERN = '[^\\s@<>,;]+@[^\\s@<>,;]+\\.[^\\s@<>,;]+';
export const ALERT_URL_PATTERN = 'https?://.+';
