import { duplicateIdsError } from './duplicate-ids';

describe('a batch naming one record twice, as the hosted CRM refuses it', () => {
  it('when every id comes once, then the batch is taken', () => {
    expect(duplicateIdsError(['1', '2', 'a@example.com'])).toBeNull();
  });

  it('when ids come twice, then the batch is refused, naming each once', () => {
    const error = duplicateIdsError(['1', '2', '1', 'a@example.com', '1', 'a@example.com']);
    expect(error).toMatchObject({
      code: 'INVALID_INPUT',
      message: 'Duplicate IDs found in batch input: [1, a@example.com]. IDs must be unique',
      details: { context: { ids: ['1', 'a@example.com'] } },
    });
  });
});
