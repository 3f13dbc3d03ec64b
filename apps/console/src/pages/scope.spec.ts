import * as contracts from '@ecomm-sync/contracts';
import { ERROR_TYPES } from './scope';

describe("the console's error types", () => {
  it("when the API's error types are read, then the console offers each of them once", () => {
    expect([...ERROR_TYPES].sort()).toEqual([...contracts.ERROR_TYPES].sort());
  });
});
