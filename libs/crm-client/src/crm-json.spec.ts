import { AxiosHeaders, type InternalAxiosRequestConfig } from 'axios';
import { answerTextOf, parseAnswer, requestJson } from './crm-json';

describe('the CRM JSON, encoded and parsed once', () => {
  it.each([
    ['JSON text (the SDK’s request), even with spaces around it', ' {"inputs":[]} ', ' {"inputs":[]} '],
    ['text that is not JSON', 'not json', 'not json'],
    ['an object', { inputs: [{ id: '1' }] }, '{"inputs":[{"id":"1"}]}'],
    ['a form', new URLSearchParams({ grant_type: 'refresh_token' }), 'grant_type=refresh_token'],
    ['nothing', undefined, undefined],
  ])('when a request body is %s, then it goes out as %j', (_case, body, sent) => {
    const headers = new AxiosHeaders({ 'content-type': 'application/json' });
    expect(requestJson.call({} as InternalAxiosRequestConfig, body, headers)).toEqual(sent);
  });

  it('when an answer is JSON text of an object, then it is parsed and its text is kept with it', () => {
    const text = '{ "results": [ {"id": "7"} ] }';
    const answer = parseAnswer(text);
    expect(answer).toEqual({ results: [{ id: '7' }] });
    expect(answerTextOf(answer)).toBe(text);
  });

  it.each([
    ['text that is not JSON (a proxy’s error page)', '<html>502</html>', '<html>502</html>'],
    ['empty (a 204)', '', ''],
    ['JSON text of a number', '42', 42],
    ['JSON text of null', 'null', null],
  ])('when an answer is %s, then it reads as %j, with no text kept', (_case, text, read) => {
    const answer = parseAnswer(text);
    expect(answer).toEqual(read);
    expect(answerTextOf(answer)).toBeUndefined();
  });

  it('when a value was not parsed from an answer, then it has no text', () => {
    expect(answerTextOf({ results: [] })).toBeUndefined();
  });
});
