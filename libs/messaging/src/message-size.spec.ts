import { encodedWithin, MessageTooLargeError, type SplitBody } from './message-size';

const halve: SplitBody = (body) => {
  const { items } = body as { items: string[] };
  return items.length < 2 ? null : [{ items: items.slice(0, 1) }, { items: items.slice(1) }];
};
const sizes = (contents: Buffer[]) => contents.map((content) => (JSON.parse(content.toString()) as { items: string[] }).items.length);

describe('a message body within what the broker takes', () => {
  it.each<[string, string[], number[]]>([
    ['when a body is within the limit, then it is one message, encoded once', ['a', 'b'], [2]],
    ['when a body is over it, then it is split until each part is within it', ['x'.repeat(40), 'y'.repeat(40), 'z'.repeat(40)], [1, 2]],
  ])('%s', (_case, items, expected) => {
    expect(sizes(encodedWithin('k', { items }, 100, halve))).toEqual(expected);
  });

  it('when one part cannot be split and is still over the limit, then it is refused, naming its size and the limit', () => {
    expect(() => encodedWithin('sync.batch.CONTACT', { items: ['x'.repeat(200)] }, 100, halve)).toThrow(
      new MessageTooLargeError('sync.batch.CONTACT', 214, 100),
    );
  });

  it('when the split makes one smaller body of it, then that body is sent in its place', () => {
    const shorten: SplitBody = (_body, bytes, maxBytes) => [{ items: [`${bytes} > ${maxBytes}`] }];
    expect(encodedWithin('k', { items: ['x'.repeat(200)] }, 100, shorten).map((content) => content.toString())).toEqual(['{"items":["214 > 100"]}']);
  });

  it('when bodies are split and cut down, then the report counts each split and each cut', () => {
    const halveOrShorten: SplitBody = (body) => {
      const { items } = body as { items: string[] };
      return items.length < 2 ? [{ items: ['cut'] }] : [{ items: items.slice(0, 1) }, { items: items.slice(1) }];
    };
    const report = { splits: 0, cut: 0 };

    const contents = encodedWithin('k', { items: ['x'.repeat(200), 'y'.repeat(40), 'z'.repeat(40)] }, 100, halveOrShorten, report);

    expect(contents.map((content) => content.toString())).toEqual(['{"items":["cut"]}', `{"items":["${'y'.repeat(40)}","${'z'.repeat(40)}"]}`]);
    expect(report).toEqual({ splits: 2, cut: 1 });
    encodedWithin('k', { items: ['a'] }, 100, halveOrShorten, report);
    expect(report).toEqual({ splits: 2, cut: 1 });
  });

  it('when the split makes no body of it, then it is refused rather than dropped', () => {
    expect(() => encodedWithin('k', { items: ['x'.repeat(200)] }, 100, () => [])).toThrow(MessageTooLargeError);
  });

  it('when a body over the limit has no way to split, then it is refused', () => {
    expect(() => encodedWithin('k', { items: ['a', 'x'.repeat(200)] }, 100)).toThrow(MessageTooLargeError);
  });
});
