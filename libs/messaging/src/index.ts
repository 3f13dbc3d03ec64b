export { Broker } from './broker';
export type { BrokerOptions, Delivery, MessageHandler, BatchHandler, BatchOptions, ConsumeOptions, DeadLetter, DeadLetterHook } from './broker';
export { PoisonMessageError } from './errors';
export { QUEUES, namesOf, exchangeName, declareTopology } from './topology';
export type { QueueName, QueueNames } from './topology';
export { redriveDeadLetters, redriveAllDeadLetters, isQueueName, purgeAndDeleteTopology } from './admin';
