export { Broker } from './broker';
export type { BrokerOptions, Delivery, MessageHandler, BatchHandler, BatchOptions } from './broker';
export type { ConsumeOptions, DeadLetter, DeadLetterHook } from './settlement';
export { PoisonMessageError } from './errors';
export { QUEUES, namesOf, exchangeName, declareTopology } from './topology';
export type { QueueName, QueueNames } from './topology';
export { redriveDeadLetters, redriveAllDeadLetters, isQueueName, purgeAndDeleteTopology } from './admin';
export { queueStats } from './queue-stats';
export type { QueueStats } from './queue-stats';
