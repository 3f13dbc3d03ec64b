export { waitFor } from './wait-for';
export { freePort } from './free-port';
export { uniqueName } from './unique-name';
export { testInfrastructure } from './infrastructure';
export * from './builders';
