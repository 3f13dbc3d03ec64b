import type { Repositories } from '@ecomm-sync/data-access';

/**
 * The public members of a class: what its callers can see. The repositories and the broker are
 * classes with private fields, which TypeScript compares nominally, so no fake is assignable to
 * them; a fake `implements PublicOf<X>` instead, and `asRepositories` hands it over as an X. The
 * cast is sound for callers, who cannot reach private members anyway.
 */
export type PublicOf<T> = { [K in keyof T]: T[K] };

/** Fakes of some repositories, typed as the `Pick<Repositories, …>` a use case takes. */
export const asRepositories = <K extends keyof Repositories>(fakes: { [P in K]: PublicOf<Repositories[P]> }): Pick<Repositories, K> =>
  fakes as unknown as Pick<Repositories, K>;

/** A stored value as a caller gets it: a copy, so that changing it changes nothing stored (as with a database). */
export const copy = <T>(value: T): T => structuredClone(value);
