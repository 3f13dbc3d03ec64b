import { describeConsoleReadModelsContract } from '../contracts/console-read-models.contract';
import { fakeConsoleReadModels } from './fake-console.repositories';

describeConsoleReadModelsContract('fakes over the fake collections', () => fakeConsoleReadModels());
