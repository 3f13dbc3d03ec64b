import * as contracts from '@ecomm-sync/contracts';
import { MAX_OBJECT_ID_LENGTH } from './input-limits';

describe("the console's input limits", () => {
  it("when the API's limit of external ids is read, then the console's forms use the same", () => {
    expect(MAX_OBJECT_ID_LENGTH).toBe(contracts.MAX_OBJECT_ID_LENGTH);
  });
});
