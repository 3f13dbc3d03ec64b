import { plainMessage } from './plain-messages';

describe('plainMessage', () => {
  it.each([
    [
      'when a portal key is refused then it says to sign in with a current key',
      401,
      'Invalid hapikey: no portal or developer account has this API key (it may have been rotated)',
      'This key is not valid any more: it was rotated, revoked or mistyped. Sign out and sign in with a current key.',
    ],
    [
      'when an access token expired then it says to sign in with a new one',
      401,
      'The access token expired; get a new one at POST /oauth/v1/token with grant_type=refresh_token',
      'Your sign-in expired. Sign out and sign in with a new access token.',
    ],
    [
      'when a developer key lacks its application then it says to sign in with the application id',
      400,
      'appId is required with a developer API key: add ?appId=<your application id>',
      'This developer key needs an application: sign out and sign in with the application id too.',
    ],
    [
      'when a portal is needed then it says to choose one',
      400,
      'portalId is required with a developer API key: add ?portalId=<a portal that installed the application>',
      'Choose a portal first (the portal picker above).',
    ],
    [
      'when an external id is too long then it names the field and its limit',
      400,
      'query/externalObjectId must NOT have more than 100 characters',
      'The external id is too long: at most 100 characters.',
    ],
    ['when another field is refused then it names the field as a form does', 400, 'body/storeId must be string', 'The store must be string.'],
    [
      'when a field that the API takes as null too is refused then the form is not told about null, which it cannot send',
      400,
      'body/mappings/DEAL/properties must be an array of at most 1000 mappings (or null, the same as leaving it out), got 1001',
      'The field properties must be an array of at most 1000 mappings, got 1001.',
    ],
    [
      "when a store's id is refused then it names the store id",
      400,
      'body/id must be an ASCII string of 1 to 100 characters',
      'The store id must be an ASCII string of 1 to 100 characters.',
    ],
    [
      'when a query parameter is refused then it names the field as the form does',
      400,
      'Query parameter externalObjectId must be an ASCII string of 1 to 100 characters',
      'The external id must be an ASCII string of 1 to 100 characters.',
    ],
    [
      'when the rate limit is reached then it says to wait, without Retry-After',
      429,
      'Rate limit reached: this credential may make 600 requests per 10 s; wait for Retry-After seconds and send fewer, larger batches',
      'Too many requests just now. Wait a few seconds and try again; pages that update themselves go on by themselves.',
    ],
    [
      'when the request head was too long then it says to shorten it',
      431,
      'The service answered 431',
      'That is too long for the service to read. Shorten what you typed and try again.',
    ],
    [
      "when an alert rule's condition is out of range then it names the field and its range",
      400,
      'body/condition/minutes must be <= 10080',
      'The minutes must be <= 10080.',
    ],
    [
      'when a destination is not accepted then it says to check each field',
      400,
      'body must match exactly one schema in oneOf',
      'This is not accepted: check each field against the hint beside it.',
    ],
    [
      "when an alert rule's name is too long then it names the field and its limit",
      400,
      'body/name must NOT have more than 100 characters',
      'The name is too long: at most 100 characters.',
    ],
    [
      'when a default alert rule cannot be deleted then the service’s sentence is kept',
      409,
      'The alert rule "Import failed" came with the install: disable it instead of deleting it',
      'The alert rule "Import failed" came with the install: disable it instead of deleting it',
    ],
    [
      'when a message is already plain then it is kept',
      404,
      'No such object: nothing was received for it yet',
      'No such object: nothing was received for it yet',
    ],
  ])('%s', (_case, status, message, sentence) => {
    expect(plainMessage(status, message)).toBe(sentence);
  });
});
