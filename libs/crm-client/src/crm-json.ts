/**
 * The CRM's JSON, encoded and parsed once per request. The SDK hands the transport each request
 * as JSON text, which goes out as it is (axios's default would parse it again to check it); an
 * answer is parsed once, and the text it was parsed from is kept beside it, for the SDK (which
 * reads answers as text) and for the request log, instead of encoding the parsed answer again.
 */
import axios, { type AxiosRequestTransformer } from 'axios';

const answerTexts = new WeakMap<object, string>();
const axiosTransforms = [axios.defaults.transformRequest ?? []].flat();

/** axios's request transform: text (the SDK's JSON) goes out as it is, anything else as axios would send it. */
export const requestJson: AxiosRequestTransformer = function (this, data, headers) {
  if (typeof data === 'string') return data;
  return axiosTransforms.reduce((body: unknown, transform) => transform.call(this, body, headers), data);
};

/** axios's answer transform: JSON text parsed, its text kept with it; anything else as it came. */
export function parseAnswer(data: unknown): unknown {
  if (typeof data !== 'string' || data === '') return data;
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    return data; // not JSON (an HTML error page of a proxy): kept as text, as axios does
  }
  if (parsed !== null && typeof parsed === 'object') answerTexts.set(parsed, data);
  return parsed;
}

/**
 * The text an answer was parsed from, or undefined for a value not parsed by parseAnswer. Read it
 * as soon as the answer comes: an answer changed afterwards still has its old text.
 */
export const answerTextOf = (data: unknown): string | undefined => (data !== null && typeof data === 'object' ? answerTexts.get(data) : undefined);
