import { formatTraceparent, parseTraceparent } from './trace-context';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN = '00f067aa0ba902b7';

describe('traceparent', () => {
  it.each([
    ['a sampled version-00 header', `00-${TRACE}-${SPAN}-01`, { traceId: TRACE, spanId: SPAN, sampled: true }],
    ['an unsampled one', `00-${TRACE}-${SPAN}-00`, { traceId: TRACE, spanId: SPAN, sampled: false }],
    ['other flags beside sampled', `00-${TRACE}-${SPAN}-03`, { traceId: TRACE, spanId: SPAN, sampled: true }],
    ['a future version with more fields', `01-${TRACE}-${SPAN}-01-future`, { traceId: TRACE, spanId: SPAN, sampled: true }],
    ['surrounding blanks', `  00-${TRACE}-${SPAN}-01 `, { traceId: TRACE, spanId: SPAN, sampled: true }],
    ['an AMQP header read as bytes', Buffer.from(`00-${TRACE}-${SPAN}-01`), { traceId: TRACE, spanId: SPAN, sampled: true }],
    ['version ff', `ff-${TRACE}-${SPAN}-01`, undefined],
    ['version 00 with more fields', `00-${TRACE}-${SPAN}-01-more`, undefined],
    ['an all-zero trace id', `00-${'0'.repeat(32)}-${SPAN}-01`, undefined],
    ['an all-zero span id', `00-${TRACE}-${'0'.repeat(16)}-01`, undefined],
    ['upper-case hex', `00-${TRACE.toUpperCase()}-${SPAN}-01`, undefined],
    ['a short trace id', `00-${TRACE.slice(1)}-${SPAN}-01`, undefined],
    ['no header', undefined, undefined],
    ['a number', 42, undefined],
  ])('when the header is %s, then it reads as %j', (_case, header, expected) => {
    expect(parseTraceparent(header)).toEqual(expected);
  });

  it('when a context is written and read again, then it is the same', () => {
    const context = { traceId: TRACE, spanId: SPAN, sampled: false };
    expect(formatTraceparent(context)).toBe(`00-${TRACE}-${SPAN}-00`);
    expect(parseTraceparent(formatTraceparent(context))).toEqual(context);
  });
});
