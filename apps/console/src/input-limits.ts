/**
 * The API's input limits, as the console's forms enforce them (a form refuses what the API would,
 * before sending). Kept here as numbers, not imported, so that the browser bundle does not carry
 * the contracts library; input-limits.spec.ts holds them to libs/contracts.
 */
export const MAX_OBJECT_ID_LENGTH = 100;
